import { printableBlock, printableField } from '@orca/shared/printable';
import type { DispatchReceipt, PaneView, VerdictChange } from '@orca/wire/contract';

// Every string below that came from outside (a pane's cwd, title, guest name, a hook field, a
// guest's stderr) passes through printableField, so one line stays one line and no control
// character reaches the user's terminal. Numbers and our own words are printed as they are.
const p = printableField;

function waitText(view: Pick<PaneView, 'agentWait'>): string {
  if (!('agentWait' in view)) return '-';
  const w = view.agentWait;
  if (w === null || w === undefined) return 'none';
  return `${p(String(w.source))}${w.reason ? `:${p(String(w.reason))}` : ''}`;
}

/** One `orca ls` / `orca status` row: handle, state, agent, agentWait, title, cwd, guest. */
export function formatPaneRow(v: PaneView): string {
  const state = v.exited
    ? `exited(${p(String(v.exited.cause))}${v.exited.code !== null ? ` ${v.exited.code}` : ''})`
    : p(String(v.status));
  return [
    p(v.handle),
    state.padEnd(12),
    (v.isRunningAgent ? 'agent' : '-').padEnd(6),
    waitText(v).padEnd(30),
    p(v.title ?? ''),
    p(v.cwd),
    p(v.guest ?? ''),
  ].join('  ');
}

/** `orca terminal show`: the row, then the rendered screen tail (its own newlines kept). */
export function formatPaneShow(v: PaneView): string {
  return `${formatPaneRow(v)}${v.tail ? `\n${printableBlock(v.tail)}` : ''}`;
}

function isoTime(at: number): string {
  const d = new Date(at);
  // Why: toISOString throws on an invalid date; a bad stamp from the socket must not end the watch.
  return Number.isNaN(d.getTime()) ? p(String(at)) : d.toISOString();
}

/** One `orca status --watch` line. */
export function formatStatusChange(ch: VerdictChange): string {
  return `${isoTime(ch.at)}  ${p(ch.handle)}  ${p(String(ch.verdict.status))}  ${waitText(ch.verdict)}`;
}

/** `orca terminal wait` result. */
export function formatWaitResult(r: { satisfied: boolean; blockedReason?: string }): string {
  return r.satisfied ? 'satisfied' : `not satisfied${r.blockedReason ? `: blocked (${p(r.blockedReason)})` : ''}`;
}

/** `orca guest add` result. */
export function formatGuestAdded(g: { name: string; phase: string; home?: string }): string {
  return `guest ${p(g.name)}: ${p(g.phase)}${g.home ? ` (home ${p(g.home)})` : ''}`;
}

/** One `orca guest ls` row; `lastError` often quotes a guest's stderr. */
export function formatGuestRow(g: { name: string; connectionId: string; phase: string; lastError?: string }): string {
  return `${p(g.name)}  ${p(g.connectionId)}  ${p(g.phase)}${g.lastError ? `  ${p(g.lastError)}` : ''}`;
}

/** `orca guest rm` result. */
export function formatGuestRemoved(name: string, removed: boolean): string {
  return removed ? `removed ${p(name)}` : `no guest ${p(name)}`;
}

const HOOK_PROOF_WORDS: Readonly<Record<string, string>> = {
  text: 'its prompt hook carried this prompt',
  event: 'its prompt hook (no text in it)',
};

/** `orca dispatch` receipt (a host of any version: `hookProof` and `recovered` may be absent). */
export function formatDispatchReceipt(r: Partial<DispatchReceipt> & Pick<DispatchReceipt, 'stages'>): string {
  const start = r.stages[0]?.at ?? 0;
  const stages = r.stages.map((s) => `${p(String(s.stage))} +${s.at - start} ms`).join(', ');
  const by =
    r.hookProof !== undefined ? (HOOK_PROOF_WORDS[r.hookProof] ?? p(String(r.hookProof))) : p(String(r.submittedBy));
  const bytes = r.recovered ? 'proven after a host restart' : `${r.bytes ?? 0} bytes`;
  return `submitted (${by}), ${bytes}: ${stages}`;
}

/** A queued prompt as `orca queue` shows it (its fields as any host version reports them). */
export interface QueueItemLine {
  id: number;
  handle: string;
  state: string;
  prompt: string;
  position?: number;
  expiresAt?: number;
  receipt?: Partial<DispatchReceipt> & Pick<DispatchReceipt, 'stages'>;
  error?: { code: string; message: string };
  waitingFor?: string;
}

/** How much of a prompt one `orca queue ls` line shows (characters). */
const PROMPT_PREVIEW_CHARS = 60;

/** One `orca queue ls` line: id, pane, state (place in the queue, receipt or error), the prompt's start. */
export function formatQueueItem(item: QueueItemLine): string {
  const flat = item.prompt.replace(/\s+/g, ' ').trim();
  const preview = flat.length > PROMPT_PREVIEW_CHARS ? `${flat.slice(0, PROMPT_PREVIEW_CHARS - 1)}…` : flat;
  let state = p(item.state);
  if (item.position !== undefined) state += ` #${item.position}`;
  if (item.expiresAt !== undefined && item.position !== undefined)
    state += ` (expires ${new Date(item.expiresAt).toISOString()})`;
  if (item.waitingFor && item.position !== undefined) state += ` (waiting for ${p(item.waitingFor)})`;
  if (item.error) state += ` [${p(item.error.code)}] ${p(item.error.message)}`;
  else if (item.receipt) state += ` · ${formatDispatchReceipt(item.receipt)}`;
  return `${item.id}  ${p(item.handle)}  ${state}  ${p(JSON.stringify(preview))}`;
}

/** The lines `orca hooks install` prints for one agent's report. */
export function formatHookInstallReport(
  r: {
    agent: string;
    version?: { version: string; from: string } | undefined;
    error?: { code: string; message: string } | undefined;
    files: readonly { action: string; path: string }[];
    codexTrustGranted?: readonly string[] | undefined;
  },
  dryRun: boolean,
): string[] {
  const lines: string[] = [];
  if (r.version) lines.push(`${p(r.agent)} ${p(r.version.version)} (from ${p(r.version.from)})`);
  else if (!r.error) lines.push(`${p(r.agent)}: version unknown (not on PATH)`);
  if (r.error) lines.push(`refused ${p(r.agent)} [${p(r.error.code)}] ${p(r.error.message)}`);
  for (const f of r.files) lines.push(`${dryRun ? '(dry-run) ' : ''}${p(f.action)} ${p(f.path)}`);
  for (const k of r.codexTrustGranted ?? []) lines.push(`codex hook trusted: ${p(k)}`);
  return lines;
}

/** The one line `orca` prints for an error: `orca: <code>: <first line of the message>`. */
export function formatErrorLine(code: string, message: string): string {
  return `orca: ${p(code)}: ${p(message.split('\n')[0] ?? '')}`;
}

/** The `orca gc` line: rows dropped by kind and the store's size before and after. */
export function formatGcReport(r: {
  expiredRows: number;
  orphanRows: number;
  cappedRows: number;
  verdictRows: number;
  bytesBefore: number;
  bytesAfter: number;
}): string {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  return `store compacted: ${r.expiredRows} expired, ${r.orphanRows} orphaned, ${r.cappedRows} over-cap hook rows and ${r.verdictRows} old verdicts removed; ${kib(r.bytesBefore)} → ${kib(r.bytesAfter)}`;
}
