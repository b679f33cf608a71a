import { homedir } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { printableField } from '@orca/shared/printable';
import { createRelayChannel, RELAY_PROTOCOL_VERSION, type RelayChannel, relaySentinel } from '@orca/wire/relay-frames';
import { HOOK_PROTOCOL_VERSION } from '../constants.ts';
import { writeEndpointFile } from '../listener/endpoint-file.ts';
import { createHookListener } from '../listener/hook-listener.ts';
import { type HookEvent, type RelayClock, systemClock, type WireHookEvent } from '../listener/types.ts';
import { RELAY_METHODS } from '../protocol.ts';
import { coalescedWriter } from './coalesced-writer.ts';
import { SupersedingQueue } from './event-queue.ts';
import { createFsBridge } from './fs-bridge.ts';
import { guestPaths, sanitizeInstanceKey } from './paths.ts';
import { ReplayCache } from './replay-cache.ts';
import { currentRelayVersion } from './version.ts';

/** Inputs of {@link runGuestRelay}: environment and stdio only. */
export interface GuestRelayOptions {
  env: Record<string, string | undefined>;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  clock?: RelayClock;
  /** Home directory (default `env.HOME`, else `os.homedir()`). */
  home?: string;
  /** Queued bytes before superseding (default `GUEST_EVENT_QUEUE_SUPERSEDE_BYTES`; tests lower it). */
  queueSupersedeBytes?: number;
}

/** Counters of a running guest relay. */
export interface GuestRelayStats {
  accepted: number;
  dropped: number;
  published: number;
  superseded: number;
  replayed: number;
}

/** A running guest relay. */
export interface GuestRelay {
  /** Settles with the exit code once the relay has shut down. */
  exited: Promise<number>;
  stats(): GuestRelayStats;
  /** Shut down (as on a signal), exit code 0. */
  shutdown(): void;
}

const PORT_RE = /^[1-9][0-9]*$/;

/**
 * Run the guest relay on the given stdio: listener on the env port, endpoint file, sentinel,
 * then framed JSON-RPC. Exits on stdin end, stdout error or link loss.
 *
 * @example
 * const relay = runGuestRelay({ env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 * process.exitCode = await relay.exited;
 */
export function runGuestRelay(options: GuestRelayOptions): GuestRelay {
  const { env, stdin, stdout, stderr } = options;
  const clock = options.clock ?? systemClock;
  const logLine = (msg: string): void => {
    try {
      stderr.write(`orca-relay: ${printableField(msg)}\n`);
    } catch {
      // Why: a dead stderr must not crash the relay.
    }
  };
  const debug = env.ORCA_RELAY_DEBUG === '1';
  const counters = { published: 0, replayed: 0 };
  let listenerStats = (): { accepted: number; dropped: number } => ({ accepted: 0, dropped: 0 });
  const queue = new SupersedingQueue<WireHookEvent>(options.queueSupersedeBytes);
  const stats = (): GuestRelayStats => ({ ...listenerStats(), ...counters, superseded: queue.superseded });

  const portRaw = env.ORCA_AGENT_HOOK_PORT ?? '';
  const token = env.ORCA_AGENT_HOOK_TOKEN ?? '';
  if (!PORT_RE.test(portRaw) || Number(portRaw) > 65535 || token === '') {
    logLine('missing or invalid ORCA_AGENT_HOOK_PORT/ORCA_AGENT_HOOK_TOKEN');
    return { exited: Promise.resolve(1), stats, shutdown() {} };
  }
  const port = Number(portRaw);
  const home = (options.home ?? env.HOME ?? homedir()).replace(/(.)\/+$/, '$1');
  const paths = guestPaths(home, sanitizeInstanceKey(env.ORCA_GUEST_INSTANCE, port), currentRelayVersion());

  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((r) => {
    resolveExit = r;
  });
  let stopping = false;
  let stdoutDead = false;

  const out = coalescedWriter(stdout);
  const channel: RelayChannel = createRelayChannel({
    policy: 'drop',
    clock,
    write: (bytes) => {
      if (stdoutDead) return true;
      return out.write(bytes);
    },
  });
  const cache = new ReplayCache();
  const publish = (event: WireHookEvent): number => {
    const bytes = channel.notify(RELAY_METHODS.agentHook, event);
    counters.published += 1;
    if (debug) logLine(`relayed ${event.source} ${event.paneKey}`);
    return bytes;
  };
  const flush = (): void => {
    while (queue.length > 0 && channel.writable) {
      const e = queue.shift();
      if (e !== undefined) publish(e);
    }
  };
  channel.onDrain(flush);
  stdout.on('drain', () => channel.drained());

  let bound = { port: 0, fallback: false };
  let endpointWritten = false;
  const listener = createHookListener({
    token,
    port,
    clock,
    onEvent: (event: HookEvent) => {
      const wire: WireHookEvent = { ...event, connectionId: null, sentAt: clock.now() };
      // Why: the frame's own encoding sizes the event; only a held-back event is stringified for its size.
      if (queue.length === 0 && channel.writable) {
        cache.set(event, publish(wire));
        return;
      }
      const bytes = Buffer.byteLength(JSON.stringify(wire));
      cache.set(event, bytes);
      queue.push(event.paneKey, bytes, wire);
    },
  });
  listenerStats = () => {
    const s = listener.stats();
    return { accepted: s.accepted, dropped: Object.values(s.dropped).reduce((a, b) => a + b, 0) };
  };

  const fsHandlers = createFsBridge({
    home,
    homeInfo: () => ({
      boundPort: bound.port,
      portFallback: bound.fallback,
      endpointPath: paths.endpointPath,
      endpointWritten,
      version: currentRelayVersion(),
    }),
  });
  for (const [method, handler] of Object.entries(fsHandlers)) channel.onRequest(method, (params) => handler(params));
  channel.onRequest(RELAY_METHODS.requestReplay, () => {
    const events = cache.events();
    for (const e of events) {
      channel.notify(RELAY_METHODS.agentHook, { ...e, connectionId: null, sentAt: clock.now(), isReplay: true });
      counters.replayed += 1;
    }
    return { replayed: events.length };
  });

  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    // Why: the frames of this turn's events are still corked; the process exits once stopped.
    if (!stdoutDead) out.flush();
    stdoutDead = true;
    channel.dispose();
    void listener.stop().then(() => resolveExit(0));
  };
  channel.onDispose(() => shutdown());
  stdin.on('data', (chunk: Buffer) => channel.receive(chunk));
  stdin.on('end', shutdown);
  stdin.on('close', shutdown);
  stdin.on('error', shutdown);
  stdout.on('error', () => {
    stdoutDead = true;
    shutdown();
  });

  void (async () => {
    try {
      bound = await listener.start();
    } catch {
      logLine('hook server bind failed');
      stopping = true;
      stdoutDead = true;
      channel.dispose();
      resolveExit(1);
      return;
    }
    if (bound.fallback) logLine(`port ${port} occupied; bound ${bound.port}`);
    endpointWritten = await writeEndpointFile(
      paths.endpointDir,
      { port: bound.port, token, env: 'remote', version: HOOK_PROTOCOL_VERSION },
      { format: 'env' },
    );
    if (!endpointWritten) logLine(`could not write endpoint file ${paths.endpointPath}`);
    if (stopping) return;
    stdout.write(relaySentinel(RELAY_PROTOCOL_VERSION));
    channel.start();
  })();

  return { exited, stats, shutdown };
}
