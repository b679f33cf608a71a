import type { StatusRow } from '@orca/agent-status';
import type { LabRun } from './lab-run.ts';

/** What the host saw at one moment, enough to replay it through `orca-status classify`. */
export interface MomentCapture {
  readonly screen: readonly string[];
  readonly tail: string;
  readonly title: string | null;
  /** Evidence as `orca-status classify` flags (times rebased to start at 1000 ms). */
  readonly evidence: {
    now: number;
    rows?: StatusRow[];
    title?: string;
    titleLive?: boolean;
    titleAt?: number;
    waitBlockedAt?: number;
    fg?: string;
    lastOutputAt?: number;
  };
}

/** Raw tail kept in a fixture: the last this-many UTF-16 units, cut at a line start. */
const FIXTURE_TAIL_CHARS = 3_000;
/** Rows kept in a fixture (the newest; fusion reads the newest rows) and the length of their text fields. */
const FIXTURE_ROWS = 8;
const FIXTURE_ROW_TEXT_CHARS = 80;

function shortRow(row: StatusRow): StatusRow {
  const out: Record<string, unknown> = { ...row };
  for (const key of ['prompt', 'lastAssistantMessage', 'toolInput', 'interactivePrompt'] as const) {
    const v = out[key];
    if (typeof v === 'string' && v.length > FIXTURE_ROW_TEXT_CHARS) out[key] = `${v.slice(0, FIXTURE_ROW_TEXT_CHARS)}…`;
  }
  return out as unknown as StatusRow;
}

function trimTail(tail: string): string {
  if (tail.length <= FIXTURE_TAIL_CHARS) return tail;
  const cut = tail.slice(-FIXTURE_TAIL_CHARS);
  const nl = cut.indexOf('\n');
  return nl >= 0 ? cut.slice(nl + 1) : cut;
}

/** Reads the pane's current evidence (as the host hands it to the engine) and its foreground. */
export async function captureMoment(run: LabRun): Promise<MomentCapture> {
  const live = run.host.livePane(run.handle);
  await live.screen.settled();
  const e = live.status.evidence();
  const fg = e.probe ? await e.probe.read() : null;
  const times = [e.now, live.lastOutputAt, ...(e.rows ?? []).flatMap((r) => [r.receivedAt, r.stateStartedAt])];
  if (e.title?.at != null) times.push(e.title.at);
  if (e.waitBlockedAt !== null) times.push(e.waitBlockedAt);
  const base = Math.min(...times) - 1000;
  const at = (t: number) => t - base;
  const evidence: MomentCapture['evidence'] = { now: at(e.now) };
  const rows = (e.rows ?? [])
    .slice(-FIXTURE_ROWS)
    .map((r) => shortRow({ ...r, receivedAt: at(r.receivedAt), stateStartedAt: at(r.stateStartedAt) }));
  if (rows.length > 0) evidence.rows = rows;
  if (e.title) {
    evidence.title = e.title.text;
    evidence.titleLive = e.title.live;
    if (e.title.at !== null) evidence.titleAt = at(e.title.at);
  }
  if (e.waitBlockedAt !== null) evidence.waitBlockedAt = at(e.waitBlockedAt);
  if (fg !== null) evidence.fg = fg;
  evidence.lastOutputAt = at(live.lastOutputAt);
  return {
    screen: [...(e.screen ?? [])],
    tail: trimTail(typeof e.tail === 'string' ? e.tail : (e.tail ?? []).join('\n')),
    title: e.title?.text ?? null,
    evidence,
  };
}
