/**
 * The relay protocol's names and numbers, spoken between the host's guest manager and a guest
 * relay over framed JSON-RPC (`@orca/wire/relay-frames`), and the exit codes a guest launch
 * reports. Every other file uses these; `protocol.test.ts` fails on a bare copy elsewhere.
 */

/** Methods of the relay link other than the fs bridge. */
export const RELAY_METHODS = {
  /** Notification guest → host: one hook envelope (`WireHookEvent`). */
  agentHook: 'agent.hook',
  /** Request host → guest: re-send each cached pane's latest event (`{ replayed }`). */
  requestReplay: 'agent_hook.requestReplay',
} as const;

/** One of {@link RELAY_METHODS}. */
export type RelayMethod = (typeof RELAY_METHODS)[keyof typeof RELAY_METHODS];

/** Requests host → guest of the home-scoped fs bridge; answers are `{ ok, … }` data. */
export const GUESTFS_METHODS = {
  /** The guest's home and its relay's bound port, endpoint path and version. */
  home: 'guestfs.home',
  readFile: 'guestfs.readFile',
  writeFile: 'guestfs.writeFile',
  stat: 'guestfs.stat',
  rename: 'guestfs.rename',
  unlink: 'guestfs.unlink',
  mkdir: 'guestfs.mkdir',
  chmod: 'guestfs.chmod',
  readdir: 'guestfs.readdir',
} as const;

/** One of {@link GUESTFS_METHODS}. */
export type GuestFsMethod = (typeof GUESTFS_METHODS)[keyof typeof GUESTFS_METHODS];

/**
 * Exit codes of `orca-relay` and of the scripts around it: `staleInstall` and `noNode` come from
 * `launch.sh`, `netnsLoDown` from the netns holder.
 */
export const RELAY_EXIT_CODES = {
  clean: 0,
  failure: 1,
  badArgs: 2,
  /** `launch.sh`: the installed relay is missing or of another version; the host installs it. */
  staleInstall: 42,
  /** `launch.sh`: no node ≥ 18 in the guest; the guest is unavailable (long cooldown). */
  noNode: 43,
  /** netns holder: `ip link set lo up` failed. */
  netnsLoDown: 44,
} as const;

/** One of {@link RELAY_EXIT_CODES}. */
export type RelayExitCode = (typeof RELAY_EXIT_CODES)[keyof typeof RELAY_EXIT_CODES];
