import { COMPOSER_BOTTOM_LINES } from '../limits.ts';
import type { WindowLine } from './match-window.ts';

/** Which live prompt a window shows. */
export type ReadyPromptKind = 'codex-header' | 'antigravity' | 'cursor-composer' | 'codex-composer';

const STARTS_LIMIT = 2;

function startsWith(line: WindowLine | undefined, prefix: string): boolean {
  return line !== undefined && line.indent <= STARTS_LIMIT && line.text.startsWith(prefix);
}

function sequence(lines: readonly WindowLine[], from: number, tests: readonly LineTest[]): number {
  let step = 0;
  let at = -1;
  for (let i = from; i < lines.length && step < tests.length; i++) {
    const line = lines[i];
    const test = tests[step];
    if (line && test?.(line)) {
      step++;
      at = i;
    }
  }
  return step === tests.length ? at : -1;
}

type LineTest = (l: WindowLine) => boolean;

// Why: built once; per-call closures cost an allocation (and a name definition under tsx) per poll.
const CODEX_HEADER: readonly LineTest[] = [
  (l) => l.text.includes('openai codex'),
  (l) => l.text.includes('model:'),
  (l) => l.text.includes('directory:'),
];
const ANTIGRAVITY_READY: readonly LineTest[] = [
  (l) => l.text.includes('antigravity cli'),
  (l) => l.text.startsWith('gemini'),
  (l) => l.text === '>',
];
const CODEX_CANCEL: readonly LineTest[] = [
  (l) => startsWith(l, '✗ you canceled the request to run'),
  (l) => startsWith(l, '■ conversation interrupted'),
];

/**
 * A live ready prompt strictly below line `after`: the Codex header, Antigravity's ready screen, or
 * Cursor's composer. Returns its last line index or -1.
 */
export function findReadyPromptBelow(
  lines: readonly WindowLine[],
  after: number,
): { kind: ReadyPromptKind; index: number } | null {
  const codex = sequence(lines, after + 1, CODEX_HEADER);
  if (codex >= 0) return { kind: 'codex-header', index: codex };
  const agy = sequence(lines, after + 1, ANTIGRAVITY_READY);
  if (agy >= 0) return { kind: 'antigravity', index: agy };
  let banner = -1;
  for (let i = after + 1; i < lines.length; i++) if (lines[i]?.text.includes('cursor agent')) banner = i;
  if (banner >= 0) {
    for (let i = lines.length - 1; i > banner; i--) {
      if (lines[i]?.text.startsWith('→')) return { kind: 'cursor-composer', index: i };
    }
  }
  return null;
}

/** A Codex composer line (`› …`, ≤ 2 leading spaces) within the last `COMPOSER_BOTTOM_LINES` lines. */
export function codexComposerAtBottom(lines: readonly WindowLine[], after: number): number {
  for (let i = lines.length - 1; i > after && i >= lines.length - COMPOSER_BOTTOM_LINES; i--) {
    const line = lines[i];
    if (line && line.indent <= STARTS_LIMIT && (line.text === '›' || line.text.startsWith('› '))) return i;
  }
  return -1;
}

/**
 * §5.3: after a Codex approval footer at `anchor`, in order: `✗ you canceled the request to run`,
 * any lines, `■ conversation interrupted`, then a composer at the bottom.
 */
export function codexCancelBelow(lines: readonly WindowLine[], anchor: number): boolean {
  const interrupted = sequence(lines, anchor + 1, CODEX_CANCEL);
  if (interrupted < 0) return false;
  return codexComposerAtBottom(lines, interrupted) >= 0;
}
