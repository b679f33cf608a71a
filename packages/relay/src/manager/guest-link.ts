import { printableField } from '@orca/shared/printable';
import { createRelayChannel, type RelayChannel } from '@orca/wire/relay-frames';
import { COOLDOWN_STARTUP_BASE_MS, HOST_REQUEST_TIMEOUT_MS } from '../constants.ts';
import type { RelayClock, RelayLog } from '../listener/types.ts';
import { GUESTFS_METHODS, RELAY_METHODS } from '../protocol.ts';
import { createGuestFsClient } from './guest-fs-client.ts';
import { type GuestState, guestView } from './guest-state.ts';
import type { ChildLike, GuestHandle, IngestFn } from './types.ts';

/** Counts of relayed `agent.hook` envelopes by the host ingest's answer: ingested, and dropped by reason. */
export interface IngestCounts {
  ingested: number;
  dropped: Record<string, number>;
}

/** The drop reason of a host ingest answer (see `IngestFn`), or undefined when it was ingested. */
function dropReasonOf(outcome: unknown): string | undefined {
  if (outcome === null || outcome === false) return 'refused';
  if (typeof outcome === 'object' && 'drop' in outcome) {
    const drop = (outcome as { drop: unknown }).drop;
    return typeof drop === 'string' ? drop : 'refused';
  }
  return undefined;
}

function countIngest(d: GuestLinkDeps, connectionId: string, outcome: unknown): void {
  const drop = dropReasonOf(outcome);
  if (drop !== undefined) {
    d.counts.dropped[drop] = (d.counts.dropped[drop] ?? 0) + 1;
    d.log.debug(`[relay] ${connectionId}: dropped ${RELAY_METHODS.agentHook} (${printableField(drop.slice(0, 64))})`);
    return;
  }
  d.counts.ingested += 1;
  if (d.debug && typeof outcome === 'object' && outcome !== null) {
    const { source, paneKey } = outcome as { source?: unknown; paneKey?: unknown };
    if (typeof source === 'string' && typeof paneKey === 'string')
      d.log.debug(`[relay] ${connectionId}: ${printableField(source)} ${printableField(paneKey)}`);
  }
}

/** What {@link connectGuestLink} needs from the manager and its lifecycle. */
export interface GuestLinkDeps {
  clock: RelayClock;
  log: RelayLog;
  /** Log every relayed envelope (`ORCA_RELAY_DEBUG=1`). */
  debug: boolean;
  hostPort(): number;
  ingest: IngestFn;
  onConnect: ((guest: GuestHandle) => Promise<void>) | undefined;
  counts: IngestCounts;
  /** True once `s` is no longer the manager's current state for its key (or all are disposed). */
  isDisposed(s: GuestState): boolean;
  /** The link of `s` died (channel disposed or child closed). */
  onDead(s: GuestState, channel: RelayChannel): void;
  markFailed(s: GuestState, baseMs: number, reason: string): void;
}

/**
 * Bring up the framed link to a started relay: wire the child's stdio to a relay channel, relay
 * `agent.hook` notifications raw to the host's ingest, ask for the guest's home, hand the connected guest to
 * `onConnect`, then mark it RUNNING and request a replay. A failure marks the guest FAILED.
 */
export async function connectGuestLink(
  d: GuestLinkDeps,
  s: GuestState,
  child: ChildLike,
  rest: Uint8Array,
): Promise<void> {
  const { clock, log } = d;
  const stdin = child.stdin;
  const channel = createRelayChannel({
    policy: 'close',
    clock,
    initialBytes: rest,
    requestTimeoutMs: HOST_REQUEST_TIMEOUT_MS,
    write: (bytes) => (stdin === null ? true : stdin.write(bytes)),
  });
  s.child = child;
  s.childClosed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  s.channel = channel;
  // Why: the host's ingest is the one trust boundary; the params go there raw, never re-shaped here.
  channel.onNotification(RELAY_METHODS.agentHook, (params) =>
    countIngest(d, s.connectionId, d.ingest(params, s.connectionId)),
  );
  channel.onDispose(() => d.onDead(s, channel));
  child.on('close', () => d.onDead(s, channel));
  stdin?.on('drain', () => channel.drained());
  child.stdout?.on('data', (b: Buffer) => channel.receive(b));
  child.stdout?.resume();
  child.stderr?.on('data', (b: Buffer) =>
    log.debug(`[relay] ${s.connectionId} stderr: ${b.toString('utf8').replace(/\0/g, '').trimEnd()}`),
  );
  channel.start();
  try {
    const home = (await channel.request(GUESTFS_METHODS.home)) as Record<string, unknown> | null;
    if (typeof home !== 'object' || home === null || home.ok !== true || typeof home.home !== 'string')
      throw new Error('returned no home dir');
    if (d.isDisposed(s)) return;
    if (home.portFallback === true)
      log.warn(`[relay] ${s.connectionId}: guest port ${d.hostPort()} occupied; relay bound ${String(home.boundPort)}`);
    const handle: GuestHandle = {
      ...guestView(s),
      home: home.home,
      endpointPath: typeof home.endpointPath === 'string' ? home.endpointPath : '',
      boundPort: typeof home.boundPort === 'number' ? home.boundPort : 0,
      portFallback: home.portFallback === true,
      token: s.token,
      pid: child.pid,
      fs: createGuestFsClient(channel),
      request: (method, params) => channel.request(method, params),
    };
    await d.onConnect?.(handle);
    if (d.isDisposed(s)) return;
    if (s.channel !== channel || channel.disposed) throw new Error('link lost while connecting');
    s.phase = 'running';
    s.connectedAt = clock.now();
    channel.request(RELAY_METHODS.requestReplay).catch(() => undefined);
  } catch (err) {
    if (d.isDisposed(s)) return;
    d.markFailed(s, COOLDOWN_STARTUP_BASE_MS, `connect failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
