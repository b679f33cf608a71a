/** What the host reports about a pane (`terminal.list` / `terminal.show`); fields the board shows. */
export interface BoardPane {
  handle: string;
  name: string | null;
  cwd: string;
  guest: string | null;
  agent: string | null;
  title: string | null;
  status: 'working' | 'permission' | 'idle' | null;
  isRunningAgent: boolean;
  /** Absent: not evaluated; null: evaluated, no proof; object: the agent waits on a human. */
  agentWait?: { source: string; reason?: string; since?: number } | null;
  exited?: { code: number | null; signal: number | null; cause: string };
  /** When the current verdict was published (ms since the epoch). */
  changedAt?: number;
  /** Prompts queued for it and not delivered yet (absent: none). */
  queued?: number;
  /** An agent session that ended with its keeper or host: how it resumes, or why it cannot. */
  resume?: { argv: string[] } | { reason: string };
  /** The pane that resumed this one's session. */
  resumedAs?: string;
}

/** One `status.watch` event. */
export interface VerdictChange {
  handle: string;
  at: number;
  verdict: Pick<BoardPane, 'status' | 'isRunningAgent' | 'agentWait'>;
}

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

/** The word and tone of a pane's status. */
export function statusLook(pane: BoardPane): StatusLook {
  if (pane.exited) return { word: 'exited', tone: 'exited' };
  if (isWaiting(pane)) return { word: 'waiting', tone: 'waiting' };
  if (pane.status === 'working') return { word: 'working', tone: 'working' };
  if (pane.status === 'idle') return { word: pane.isRunningAgent ? 'idle' : 'shell', tone: 'idle' };
  return { word: 'unknown', tone: 'unknown' };
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
