import type { AsyncOutcome, BlockingOutcome } from '../outcome.ts';
import type { RunDecision } from '../records.ts';
import type { HookSpawnResult } from '../spawn.ts';
import { truncateText } from './text.ts';

/** What a dialect made of one finished run, before sandbox escalation and failure policy. */
export interface Interpretation {
  outcome: BlockingOutcome | AsyncOutcome | null;
  failed: boolean;
  parseOk: boolean;
  runtimeError?: string;
  /** Extra decision flags (enforced, loopLimitReached, ignoredFields, dropped env keys). */
  decision: RunDecision;
}

/** The part of a run a dialect's exit-code table reads. */
export interface ExitedRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Stdout read as the hook protocol: nothing, one JSON object, or something else. */
export type ParsedStdout =
  | { kind: 'empty' }
  | { kind: 'object'; value: Record<string, unknown> }
  | { kind: 'invalid'; message: string; text: string };

/** Strip a leading BOM. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parse stdout: whitespace only = empty; else exactly one JSON object (whitespace around allowed). */
export function parseStdout(stdout: string): ParsedStdout {
  const text = stripBom(stdout).trim();
  if (text === '') return { kind: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', message: `invalid JSON output: ${truncateText(text)}`, text };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', message: `invalid JSON output: ${truncateText(text)}`, text };
  }
  return { kind: 'object', value: value as Record<string, unknown> };
}

/** No outcome, no failure. */
export function noOutcome(parseOk = true, decision: RunDecision = {}): Interpretation {
  return { outcome: null, failed: false, parseOk, decision };
}

/** A failure with a runtime error. */
export function failure(runtimeError: string, parseOk: boolean, decision: RunDecision = {}): Interpretation {
  return { outcome: null, failed: true, parseOk, runtimeError, decision };
}

/** A successful decision. */
export function decided(outcome: BlockingOutcome | AsyncOutcome | null, decision: RunDecision = {}): Interpretation {
  return { outcome, failed: false, parseOk: true, decision };
}

/** The ordinary non-zero-exit failure (`exited with code N`); parseOk reflects stdout. */
export function exitFailure(run: ExitedRun): Interpretation {
  return failure(`exited with code ${run.exitCode}`, parseStdout(run.stdout).kind !== 'invalid');
}

/**
 * Failures every dialect shares, checked before its exit-code table: spawn error, timeout,
 * stdout cap, death by signal. Returns null when the process exited with a code.
 */
export function commonFailure(spawn: HookSpawnResult): Interpretation | null {
  if (spawn.spawnError !== undefined) {
    const msg = spawn.spawnError.startsWith('failed to start')
      ? spawn.spawnError
      : `failed to start: ${spawn.spawnError}`;
    return failure(msg, false);
  }
  if (spawn.timedOut) return failure(`timed out after ${Math.round(spawn.timeoutMs / 100) / 10}s`, false);
  if (spawn.stdoutTruncated) return failure('stdout exceeded the output cap; process group killed', false);
  if (spawn.exitCode === null) {
    return failure(`killed by ${spawn.signal ?? 'signal'}`, parseStdout(spawn.stdout).kind !== 'invalid');
  }
  return null;
}

/** Trimmed stderr, or `fallback` when empty. */
export function stderrMessage(stderr: string, fallback: string): string {
  const text = stripBom(stderr).trim();
  return text === '' ? fallback : text;
}
