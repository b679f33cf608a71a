import { AgentStatusError } from '../errors.ts';
import type { ForegroundProbe, PaneEvidence, StatusRow } from '../types.ts';

/** The `classify` flags after parsing (one per evidence field). */
export interface ClassifyFlags {
  tail?: string;
  screen?: string;
  title?: string;
  titleLive?: boolean;
  titleRestored?: boolean;
  titleAt?: number;
  rows?: unknown;
  fg?: string;
  fgConfirm?: string;
  waitBlockedAt?: number;
  now?: number;
  exited?: boolean;
  lastOutputAt?: number;
  acceptedPrompt?: boolean;
}

/** PTY id the CLI evaluates under. */
export const CLI_PTY_ID = 'orca-status-cli';

/** Parse a millisecond flag value; throws a usage error on anything but a finite number. */
export function parseMs(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) {
    throw new AgentStatusError(
      'ORCA_STATUS_USAGE',
      `${flag}: expected milliseconds, got ${JSON.stringify(value).slice(0, 200)}`,
      { context: { flag } },
    );
  }
  return n;
}

/** Rows of `--rows`: must be a JSON array (each row is validated by the engine, bad ones dropped). */
export function parseRowsJson(text: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new AgentStatusError('ORCA_STATUS_USAGE', '--rows: expected a JSON array of status rows, got invalid JSON', {
      cause,
    });
  }
  if (!Array.isArray(value)) throw new AgentStatusError('ORCA_STATUS_USAGE', '--rows: expected a JSON array');
  return value;
}

/** `--now` defaults to the largest time given (else 0), so a run is reproducible. */
export function defaultNow(flags: ClassifyFlags): number {
  const times: number[] = [];
  for (const t of [flags.titleAt, flags.waitBlockedAt, flags.lastOutputAt]) if (t !== undefined) times.push(t);
  if (Array.isArray(flags.rows)) {
    for (const row of flags.rows) {
      const at = (row as { receivedAt?: unknown } | null)?.receivedAt;
      if (typeof at === 'number' && Number.isFinite(at)) times.push(at);
    }
  }
  return times.length === 0 ? 0 : Math.max(...times);
}

/** Build the engine's evidence from CLI flags (the fixture corpus uses the same mapping). */
export function evidenceFromFlags(flags: ClassifyFlags): PaneEvidence {
  const e: PaneEvidence = {
    now: flags.now ?? defaultNow(flags),
    ptyId: CLI_PTY_ID,
    waitBlockedAt: flags.waitBlockedAt ?? null,
  };
  if (flags.exited) e.exited = true;
  if (flags.tail !== undefined) e.tail = flags.tail;
  if (flags.screen !== undefined) e.screen = flags.screen.split(/\r?\n/);
  if (flags.title !== undefined) {
    e.title = { text: flags.title, live: flags.titleLive === true, at: flags.titleAt ?? null };
    if (flags.titleRestored) e.title.restored = true;
  }
  if (Array.isArray(flags.rows)) e.rows = flags.rows as StatusRow[];
  if (flags.fg !== undefined) {
    const cheap = flags.fg;
    const confirm = flags.fgConfirm;
    const probe: ForegroundProbe = { read: async () => cheap };
    if (confirm !== undefined) probe.confirm = async () => confirm;
    e.probe = probe;
  }
  return e;
}
