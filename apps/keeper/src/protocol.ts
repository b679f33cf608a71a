import { z } from 'zod';
import { ATTACH_PAGE_MIN_CHARS, RING_MAX_CHARS } from './constants.ts';

/** Methods a host calls on the keeper (requests answer; notifications do not). */
export const KEEPER_METHODS = {
  /** Request: `{protocol, host: {pid, version}, vacancy?}` → {@link KeeperWelcome}. Makes this link the host. */
  hello: 'keeper.hello',
  /** Request: `{id, file, args, cwd, env, cols, rows}` → `{pid}`. */
  spawn: 'pty.spawn',
  /**
   * Request: `{id, from, maxChars?}` → {@link AttachResult}; once a page reaches the end (`more`
   * unset) the pane's output streams as `pty.data`.
   */
  attach: 'pty.attach',
  /** Request: `{id}` → `{forgotten}`: an exited pane the host has recorded. */
  forget: 'pty.forget',
  /** Request: `{}` → `{stopping: true}`: kill every pane, then exit (`orca stop --all`). */
  stop: 'keeper.stop',
  /** Notification: `{id, data}`. */
  write: 'pty.write',
  /** Notification: `{id, cols, rows}`. */
  resize: 'pty.resize',
  /** Notification: `{id, signal?}`. */
  kill: 'pty.kill',
  /** Notification: `{id, paused}` (the host's emulator is behind). */
  flow: 'pty.flow',
} as const;

/** Notifications the keeper sends its host. */
export const KEEPER_EVENTS = {
  /** `{id, to, data}`: output of an attached pane; `to` is the pane's output position after it. */
  data: 'pty.data',
  /** `{id, code, signal, at}`. */
  exit: 'pty.exit',
} as const;

const id = z.string().min(1).max(200);
const size = z.number().int().min(1).max(1000);

export const HelloParams = z.object({
  protocol: z.number().int().nonnegative(),
  host: z.object({ pid: z.number().int().positive(), version: z.string().max(100) }),
  /**
   * While no host is attached the keeper holds this claim file (the host's single-instance file,
   * `pid` set to the keeper's), so a host that does not know the keeper refuses to start instead of
   * ending its view of panes that still run; a host that knows it takes the claim over.
   */
  vacancy: z.object({ path: z.string().min(1).max(4096), content: z.record(z.string(), z.unknown()) }).optional(),
});
export const SpawnParams = z.object({
  id,
  file: z.string().min(1).max(4096),
  args: z.array(z.string().max(1_048_576)).max(4096),
  cwd: z.string().min(1).max(4096),
  env: z.record(z.string().max(4096), z.string().max(1_048_576)),
  cols: size,
  rows: size,
});
export const AttachParams = z.object({
  id,
  from: z.number().int().nonnegative(),
  /** At most this much output per answer (`pty.attach.pages.v1`); `more` then says to ask from `to` again. */
  maxChars: z.number().int().min(ATTACH_PAGE_MIN_CHARS).max(RING_MAX_CHARS).optional(),
});
export const IdParams = z.object({ id });
export const WriteParams = z.object({ id, data: z.string() });
export const ResizeParams = z.object({ id, cols: size, rows: size });
export const KillParams = z.object({
  id,
  signal: z
    .string()
    .regex(/^SIG[A-Z0-9]{2,8}$/)
    .optional(),
});
export const FlowParams = z.object({ id, paused: z.boolean() });

/** The keeper's answer to `keeper.hello`. */
export interface KeeperWelcome {
  readonly protocol: number;
  readonly version: string;
  readonly pid: number;
  readonly capabilities: readonly string[];
  readonly panes: readonly import('./kept-pane.ts').KeptPaneInfo[];
}

/** The answer to `pty.attach`. */
export interface AttachResult {
  readonly from: number;
  readonly to: number;
  readonly data: string;
  readonly truncated: boolean;
  /** Output follows `to` that this page left out (asked with `maxChars`): attach again from `to`. */
  readonly more?: boolean;
  /** DEC private modes on now (set them before `data` when rebuilding a screen). */
  readonly modes: readonly number[];
  readonly exit?: import('./kept-pane.ts').KeptExit;
}
