import type { PaneView, VerdictChange } from '@orca/wire/contract';
/** What the host reports about a pane (`terminal.list` / `terminal.show`); fields the board shows. */
/** A pane on the board: the host's view of it (`terminal.list`, `@orca/wire/contract`). */
export type BoardPane = PaneView;

/** One `status.watch` event. */
export type { VerdictChange };

/** How a status shows: a word and a colour class, never the colour alone. */
export interface StatusLook {
  word: string;
  tone: 'waiting' | 'working' | 'idle' | 'exited' | 'unknown';
}

/** True when the pane waits on a human (an approval menu, a question). */
export function isWaiting(pane: BoardPane): boolean {
  if (pane.exited) return false;
  return pane.status === 'permission' || (typeof pane.agentWait === 'object' && pane.agentWait !== null);
}

/** Programs that are shells: a pane running one with no agent shows as `shell`. */
const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'fish',
  'dash',
  'ksh',
  'mksh',
  'yash',
  'posh',
  'tcsh',
  'csh',
  'busybox',
  'nu',
  'pwsh',
  'elvish',
  'xonsh',
]);

/** True when no agent runs in the pane (nothing named one and its verdict says so). */
export function hasNoAgent(pane: BoardPane): boolean {
  return pane.agent === null && !pane.isRunningAgent;
}

/** The word and tone of a pane's status. */
export function statusLook(pane: BoardPane): StatusLook {
  if (pane.exited) return { word: 'exited', tone: 'exited' };
  if (isWaiting(pane)) return { word: 'waiting', tone: 'waiting' };
  if (pane.status === 'working') return { word: 'working', tone: 'working' };
  if (pane.status === 'idle' && pane.isRunningAgent) return { word: 'idle', tone: 'idle' };
  // Why: a plain program has no agent status to know; it is a shell, or a program that runs.
  if (hasNoAgent(pane) && (pane.status !== null || pane.command !== undefined))
    return { word: SHELLS.has(pane.command ?? 'sh') ? 'shell' : 'running', tone: 'idle' };
  return { word: 'unknown', tone: 'unknown' };
}

/** How an exited pane ended: `exit 127`, `signal 9`, with its cause when it is not its own exit. */
export function exitText(pane: BoardPane): string {
  const e = pane.exited;
  if (!e) return '';
  const how = e.code !== null ? `exit ${e.code}` : e.signal !== null ? `signal ${e.signal}` : 'ended';
  return e.cause && e.cause !== 'exit' ? `${how} · ${e.cause}` : how;
}

/** Panes whose name, handle, agent, command, status, title or cwd holds `text` (case-insensitive). */
export function filterPanes(panes: readonly BoardPane[], text: string): BoardPane[] {
  const needle = text.trim().toLowerCase();
  if (needle === '') return [...panes];
  return panes.filter((p) =>
    [p.name, p.handle, p.agent, p.command, statusLook(p).word, p.title, p.cwd, p.guest]
      .filter((f): f is string => typeof f === 'string')
      .some((f) => f.toLowerCase().includes(needle)),
  );
}

/** The handle after `from` among `handles` (`step` 1 or -1), staying at the ends; the first when `from` is not there. */
export function stepSelection(handles: readonly string[], from: string | null, step: 1 | -1): string | null {
  if (handles.length === 0) return null;
  const at = from === null ? -1 : handles.indexOf(from);
  if (at < 0) return handles[step === 1 ? 0 : handles.length - 1] ?? null;
  return handles[Math.min(handles.length - 1, Math.max(0, at + step))] ?? null;
}

/** The next pane waiting on a human after `from` (wrapping), or null when none waits. */
export function nextWaiting(panes: readonly BoardPane[], from: string | null): string | null {
  const waiting = sortPanes(panes).filter(isWaiting);
  if (waiting.length === 0) return null;
  const at = waiting.findIndex((p) => p.handle === from);
  return (waiting[(at + 1) % waiting.length] ?? waiting[0])?.handle ?? null;
}

const RANK: Record<StatusLook['tone'], number> = { waiting: 0, working: 1, idle: 2, unknown: 3, exited: 4 };

/** Panes waiting on a human first, then working, idle, unknown, exited; newest change first within each. */
export function sortPanes(panes: readonly BoardPane[]): BoardPane[] {
  return [...panes].sort(
    (a, b) =>
      RANK[statusLook(a).tone] - RANK[statusLook(b).tone] ||
      (b.changedAt ?? 0) - (a.changedAt ?? 0) ||
      a.handle.localeCompare(b.handle),
  );
}

/** The tab title: the count of waiting panes first, so it shows in a crowded tab strip. */
export function tabTitle(panes: readonly BoardPane[]): string {
  const waiting = panes.filter(isWaiting).length;
  return waiting > 0 ? `(${waiting}) waiting · orca` : 'orca';
}

/** A verdict change applied to the board's copy of the pane (other fields come with the next list). */
export function applyChange(panes: readonly BoardPane[], change: VerdictChange): BoardPane[] {
  return panes.map((p) => {
    if (p.handle !== change.handle) return p;
    const next: BoardPane = {
      ...p,
      status: change.verdict.status,
      isRunningAgent: change.verdict.isRunningAgent,
      changedAt: change.at,
    };
    // Why: an absent agentWait (not evaluated) stays absent, never becomes null.
    if ('agentWait' in change.verdict) next.agentWait = change.verdict.agentWait ?? null;
    else delete next.agentWait;
    return next;
  });
}

/** `12 s`, `4 min`, `2 h` since `at`. */
export function elapsed(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h`;
}

/** The wait column: the reason (or where the proof came from) and how long it has waited. */
export function waitText(pane: BoardPane, now: number): string {
  const w = pane.agentWait;
  if (!isWaiting(pane)) return '';
  const what = w?.reason ?? (w ? `via ${w.source}` : 'approval');
  const since = w?.since ?? pane.changedAt;
  return since !== undefined ? `${what} · ${elapsed(since, now)}` : what;
}
