import { findBlockedSignal } from './blocked-signal.ts';
import { windowFromScreen } from './match-window.ts';

/** Tracks when the blocked prompt on a rendered screen appeared (§5.4 for a live emulator). */
export interface ScreenWaitStamp {
  /** Reads the screen at `now`; returns `waitBlockedAt` (null while no prompt is on screen). */
  observe(screen: readonly string[], now: number): number | null;
  /** Process replaced, PTY exit: null, nothing remembered. */
  reset(): void;
  readonly waitBlockedAt: number | null;
}

// Why: a selection cursor moving between a prompt's options redraws its lines; it is the same prompt.
const LEADING_CURSOR = /^[❯›>●▶→]\s*/;

/**
 * The wait stamp over rendered screens, for hosts that own an emulator: `waitBlockedAt` moves to
 * `now` when a prompt appears on screen, or when a different prompt (reason or first line) takes
 * its place; an unchanged prompt never restamps, and one that vanished stamps again when it returns.
 * Real TUIs position words with cursor moves and repaint in place, so the rendered screen — not
 * the byte stream — says when a prompt appeared. Pure: the caller passes `now`.
 *
 * @example
 * const stamp = createScreenWaitStamp();
 * stamp.observe(['Do you trust the files in this folder?', '● 1. Trust folder'], 1000); // 1000
 */
export function createScreenWaitStamp(): ScreenWaitStamp {
  let key: string | null = null;
  let waitBlockedAt: number | null = null;
  return {
    observe(screen, now) {
      const window = windowFromScreen(screen);
      const signal = findBlockedSignal(window);
      if (!signal) {
        key = null;
        waitBlockedAt = null;
        return null;
      }
      const head = window.lines.find((l) => l.offset === signal.startOffset)?.text ?? signal.line;
      const next = `${signal.reason}\n${head.replace(LEADING_CURSOR, '')}`;
      if (next !== key) {
        key = next;
        waitBlockedAt = now;
      }
      return waitBlockedAt;
    },
    reset() {
      key = null;
      waitBlockedAt = null;
    },
    get waitBlockedAt() {
      return waitBlockedAt;
    },
  };
}
