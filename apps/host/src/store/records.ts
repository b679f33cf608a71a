import { type Tri, triFrom } from '@orca/wire/compat';
import { z } from 'zod';

/** A pane as stored. `exit*` are null while the PTY lives. */
export interface PaneRecord {
  readonly handle: string;
  readonly paneKey: string;
  readonly tabId: string;
  readonly name: string | null;
  readonly cwd: string;
  readonly argv: readonly string[];
  readonly guest: string | null;
  readonly agent: string | null;
  readonly createdAt: number;
  readonly title: string | null;
  readonly exitedAt: number | null;
  readonly exitCode: number | null;
  readonly exitSignal: number | null;
  readonly exitCause: string | null;
  /** What it was started with beyond argv and cwd (for a resume): the pane's own env, its size. */
  readonly launch?: PaneLaunch | null;
  /** The agent's own session id, from its hooks (the newest seen). */
  readonly sessionId?: string | null;
  /** The pane that resumed this one's session. */
  readonly resumedAs?: string | null;
}

/** The launch of a pane a resume repeats: the env given to it (not the host's), its size. */
export interface PaneLaunch {
  readonly env: Readonly<Record<string, string>>;
  readonly cols?: number;
  readonly rows?: number;
}

const PaneLaunchSchema = z.object({
  env: z.record(z.string(), z.string()),
  cols: z.number().int().positive().optional(),
  rows: z.number().int().positive().optional(),
});

/** A stored launch (JSON), or null when absent or malformed. */
export function parsePaneLaunch(text: string | null | undefined): PaneLaunch | null {
  if (!text) return null;
  try {
    const r = PaneLaunchSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** A stored hook event: the raw accepted envelope plus the normalised row (null if ignored). */
export interface HookRowRecord {
  readonly id: number;
  readonly paneKey: string;
  readonly connectionId: string;
  readonly source: string;
  readonly hookEventName: string | null;
  readonly receivedAt: number;
  readonly envelope: Record<string, unknown>;
  readonly row: Record<string, unknown> | null;
}

/** `agentWait` as stored: the tri-state kept exactly (absent, null, or an object). */
export type StoredAgentWait = Tri<Record<string, unknown>>;

/** A stored verdict. */
export interface VerdictRecord {
  readonly handle: string;
  readonly at: number;
  readonly status: string | null;
  readonly isRunningAgent: boolean;
  readonly agentWait: StoredAgentWait;
}

/** A stored guest. */
export interface GuestRecord {
  readonly kind: string;
  readonly name: string;
  readonly target: string;
  readonly createdAt: number;
  /** What `guest add` was given, to add it again at the next start. */
  readonly options?: GuestOptionsRecord;
}

/** The stored options of a guest. */
export interface GuestOptionsRecord {
  readonly noHooks?: boolean;
  readonly agents?: readonly string[];
  readonly sshArgs?: readonly string[];
}

const GuestOptionsSchema = z
  .object({
    noHooks: z.boolean().optional(),
    agents: z.array(z.string()).optional(),
    sshArgs: z.array(z.string()).optional(),
  })
  .catch({});

export function parseGuestOptions(text: string): GuestOptionsRecord {
  try {
    return GuestOptionsSchema.parse(JSON.parse(text)) as GuestOptionsRecord;
  } catch {
    return {};
  }
}

export interface PaneRow {
  handle: string;
  pane_key: string;
  tab_id: string;
  name: string | null;
  cwd: string;
  argv: string;
  guest: string | null;
  agent: string | null;
  created_at: number;
  title: string | null;
  exited_at: number | null;
  exit_code: number | null;
  exit_signal: number | null;
  exit_cause: string | null;
  launch?: string | null;
  session_id?: string | null;
  resumed_as?: string | null;
}

export interface HookRowRow {
  id: number;
  pane_key: string;
  connection_id: string;
  source: string;
  hook_event_name: string | null;
  received_at: number;
  envelope: string;
  row: string | null;
}

export interface VerdictRow {
  handle: string;
  at: number;
  status: string | null;
  is_running_agent: number;
  agent_wait_kind: 'absent' | 'null' | 'value';
  agent_wait: string | null;
}

export function toPane(r: PaneRow): PaneRecord {
  return {
    handle: r.handle,
    paneKey: r.pane_key,
    tabId: r.tab_id,
    name: r.name,
    cwd: r.cwd,
    argv: JSON.parse(r.argv) as string[],
    guest: r.guest,
    agent: r.agent,
    createdAt: r.created_at,
    title: r.title,
    exitedAt: r.exited_at,
    exitCode: r.exit_code,
    exitSignal: r.exit_signal,
    exitCause: r.exit_cause,
    launch: parsePaneLaunch(r.launch),
    sessionId: r.session_id ?? null,
    resumedAs: r.resumed_as ?? null,
  };
}

export function toHookRow(r: HookRowRow): HookRowRecord {
  return {
    id: r.id,
    paneKey: r.pane_key,
    connectionId: r.connection_id,
    source: r.source,
    hookEventName: r.hook_event_name,
    receivedAt: r.received_at,
    envelope: JSON.parse(r.envelope) as Record<string, unknown>,
    row: r.row === null ? null : (JSON.parse(r.row) as Record<string, unknown>),
  };
}

export function toVerdict(r: VerdictRow): VerdictRecord {
  // Why: the row keeps the kind in its own column, so an absent wait never reads back as null.
  const agentWait: StoredAgentWait =
    r.agent_wait_kind === 'absent'
      ? { kind: 'absent' }
      : triFrom(r.agent_wait_kind === 'value' && r.agent_wait !== null ? JSON.parse(r.agent_wait) : null);
  return {
    handle: r.handle,
    at: r.at,
    status: r.status,
    isRunningAgent: r.is_running_agent === 1,
    agentWait,
  };
}
