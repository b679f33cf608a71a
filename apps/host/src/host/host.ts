import { randomUUID } from 'node:crypto';
import { isPromptSubmitEvent } from '@orca/agent-status/submit';
import { acceptRelayed, createHookListener, type RelayedEvent } from '@orca/relay/listener';
import { RUNTIME_PROTOCOL_VERSION } from '@orca/wire/compat';
import {
  APP_VERSION,
  DEFAULT_WAIT_TIMEOUT_MS,
  SHUTDOWN_PTY_GRACE_MS,
  STORE_COMPACTION_INTERVAL_MS,
} from '../constants.ts';
import { HostError, refusal } from '../errors.ts';
import { createAgentVersions } from '../hooks/agent-versions.ts';
import { createHostCommandHooks } from '../hooks/command-hooks.ts';
import { installHooks } from '../hooks/install-hooks.ts';
import { startRuntimeServer } from '../rpc/runtime-server.ts';
import type { RpcSocketServer } from '../rpc/socket-server.ts';
import { ensureDataDir } from '../runtime/data-dir.ts';
import { acquireRuntimeFile, type RuntimeClaim } from '../runtime/runtime-file.ts';
import { openStore, type Store } from '../store/store.ts';
import { dispatchPrompt } from './dispatch.ts';
import { type HookEndpoint, hookEndpoint, newHookToken, paneHookEnv, publishEndpoint } from './endpoint.ts';
import { createGuestRegistry } from './guests.ts';
import type { Host, HostOptions, VerdictChange } from './host-types.ts';
import { createIngestGuards } from './ingest-guards.ts';
import { type LivePane, startLivePane } from './live-pane.ts';
import { createHostLogger } from './logger.ts';
import { livePaneView, storedPaneView } from './pane-view.ts';
import { drainSpool } from './spool.ts';
import { storedWait, verdictFromStored } from './stored-verdict.ts';

export type { CreatePaneOptions, Host, HostOptions, VerdictChange, WaitResult } from './host-types.ts';

function cleanBaseEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    // Why: a host started from inside another Orca pane must not leak that pane's identity or endpoint.
    if (value === undefined || /^ORCA_/i.test(key)) continue;
    out[key] = value;
  }
  return out;
}

/** The vendor event name of an accepted envelope (out of band, else the payload's own field). */
function eventNameOf(event: RelayedEvent): string | undefined {
  if (event.hookEventName) return event.hookEventName;
  const p = event.payload as Record<string, unknown>;
  const name = p.hook_event_name ?? p.hookEventName;
  return typeof name === 'string' ? name : undefined;
}

/**
 * Starts a host on `dataDir`: single-instance guard, store (migrations), hook listener + endpoint
 * files, spooled events ingested. Panes are created with {@link Host.createPane}.
 *
 * @example
 * const host = await createHost({ dataDir: '/tmp/orca' });
 * const pane = host.createPane({ argv: ['claude'] });
 * host.onVerdict((c) => console.log(c.handle, c.verdict.status));
 */
export async function createHost(opts: HostOptions): Promise<Host> {
  const now = opts.now ?? Date.now;
  const paths = ensureDataDir(opts.dataDir);
  const claim: RuntimeClaim = acquireRuntimeFile(paths.runtimeJson, {
    pid: process.pid,
    socket: paths.socket,
    protocolVersion: RUNTIME_PROTOCOL_VERSION,
    appVersion: APP_VERSION,
    startedAt: now(),
  });
  const log = opts.logger ?? createHostLogger(paths.logFile);
  let store: Store;
  try {
    store = openStore(paths.store);
  } catch (error) {
    claim.release();
    throw error;
  }
  /** Why: a start that fails after the claim must leave neither runtime.json nor an open store behind. */
  const abandonStart = (): void => {
    try {
      store.close();
    } catch {
      // the store failure is what we report
    }
    claim.release();
  };
  const compact = (full = false): ReturnType<Store['gc']> => {
    const report = store.gc({ now: now(), full });
    if (report.expiredRows + report.orphanRows + report.cappedRows + report.verdictRows > 0 || full) {
      log.info(report, 'store compacted');
    }
    return report;
  };
  try {
    const restarted = store.markLivePanesExited('host-restart', now());
    if (restarted > 0) log.info({ panes: restarted }, 'panes from a previous run marked exited (host-restart)');
    compact();
  } catch (error) {
    abandonStart();
    throw error;
  }
  const compaction = setInterval(() => {
    try {
      compact();
    } catch (error) {
      log.error({ err: error }, 'store compaction failed');
    }
  }, STORE_COMPACTION_INTERVAL_MS);
  compaction.unref();

  let stopping = false;
  // Why: a pane killed late (SIGKILL after the grace) exits after the store closed; the next start marks it.
  let storeClosed = false;
  const live = new Map<string, LivePane>();
  const byPaneKey = new Map<string, LivePane>();
  const knownAgent = new Map<string, string>();
  const verdictListeners = new Set<(change: VerdictChange) => void>();
  const baseEnv = cleanBaseEnv(opts.baseEnv ?? process.env);
  // Why: agents are found on the panes' PATH; each version is asked once per host start.
  const agentVersions = createAgentVersions(baseEnv);
  const guards = createIngestGuards({ log, now, hookVersion: () => endpoint.version });

  /** Routes an event that already passed the trust boundary: store the row, feed the pane. */
  const ingestAccepted = (accepted: RelayedEvent): void => {
    const pane = byPaneKey.get(accepted.paneKey);
    // Why: rows are stored only for panes this host knows (live, or exited and still listed).
    if (!pane && !store.hasPaneKey(accepted.paneKey)) {
      guards.unknownPane(accepted);
      return;
    }
    guards.checkEndpoint(accepted);
    const row = pane && pane.exit === null ? pane.status.addHookEvent(accepted) : null;
    if (pane && pane.exit === null && isPromptSubmitEvent(accepted.source, eventNameOf(accepted))) {
      pane.lastPromptHookAt = accepted.receivedAt;
    }
    if (pane && row && knownAgent.get(pane.record.handle) !== row.source) {
      knownAgent.set(pane.record.handle, row.source);
      store.setPaneAgent(pane.record.handle, row.source);
    }
    store.insertHookRow({
      paneKey: accepted.paneKey,
      connectionId: accepted.connectionId,
      source: accepted.source,
      hookEventName: accepted.hookEventName ?? null,
      receivedAt: accepted.receivedAt,
      envelope: { ...accepted },
      row: row ? { ...row } : null,
    });
  };
  const ingest = (raw: unknown, connectionId: string): RelayedEvent | null => {
    const accepted = acceptRelayed(raw, connectionId, { now });
    if ('drop' in accepted) {
      log.debug({ connectionId, reason: accepted.drop }, 'hook event dropped at the trust boundary');
      return null;
    }
    ingestAccepted(accepted);
    return accepted;
  };

  const token = newHookToken();
  const listener = createHookListener({
    token,
    ...(opts.hookPort !== undefined ? { port: opts.hookPort } : {}),
    onEvent: (event) => {
      ingest(event, 'local');
    },
    log: {
      debug: (msg) => log.debug(msg),
      info: (msg) => log.info(msg),
      warn: (msg) => log.warn(msg),
      error: (msg) => log.error(msg),
    },
  });
  let endpoint: HookEndpoint;
  try {
    const bound = await listener.start();
    endpoint = hookEndpoint(bound.port, token, opts.hookTransport);
    await publishEndpoint(paths.agentHooksDir, endpoint);
    log.info({ port: bound.port, fallback: bound.fallback }, 'hook listener bound');
  } catch (error) {
    await listener.stop().catch(() => undefined);
    clearInterval(compaction);
    abandonStart();
    throw error;
  }

  const guests = createGuestRegistry({
    dataDir: paths.root,
    endpointPath: paths.endpointEnv,
    hostPort: () => endpoint.port,
    hostToken: () => endpoint.token,
    ingest: (event) => {
      if (!stopping) ingestAccepted(event);
    },
    ingestSpooled: (line, connectionId) => !stopping && ingestSpooled(line, connectionId),
    store,
    log,
    now,
  });
  const commandHooks = createHostCommandHooks({
    store,
    ...(opts.home ? { home: opts.home } : {}),
    now,
    onError: (error) => log.warn({ err: error }, 'command hook failed'),
  });

  /** A spooled line from `connectionId` through the trust boundary, keeping its own time. */
  const ingestSpooled = (line: unknown, connectionId: string): boolean => {
    if (typeof line !== 'object' || line === null) return false;
    const stamped = line as Record<string, unknown>;
    const accepted = acceptRelayed(line, connectionId, { now });
    if ('drop' in accepted) return false;
    // Why: a spooled event happened when it was written, not when we read it (never in the future).
    const at =
      typeof stamped.receivedAt === 'number' && Number.isFinite(stamped.receivedAt) ? stamped.receivedAt : now();
    ingestAccepted({ ...accepted, receivedAt: Math.min(Math.max(0, at), now()) });
    return true;
  };
  try {
    const spooled = await drainSpool(paths.spoolDir, (line) => ingestSpooled(line, 'local'));
    if (spooled.accepted + spooled.dropped > 0) log.info(spooled, 'spooled hook events ingested');
  } catch (error) {
    guests.disposeAll();
    await listener.stop().catch(() => undefined);
    clearInterval(compaction);
    abandonStart();
    throw error;
  }

  const requireLive = (handle: string): LivePane => {
    const pane = live.get(handle);
    if (!pane) {
      throw refusal('terminal_handle_stale', `no live pane ${handle}; run \`orca ls\` to see the panes`, { handle });
    }
    return pane;
  };

  const host: Host = {
    paths,
    store,
    endpoint,
    log,
    commandHooks,
    guests,
    rpcTcpPort: null,
    async stop() {
      if (stopping) return;
      stopping = true;
      await rpcServer?.close();
      guests.disposeAll();
      for (const pane of live.values()) pane.process.kill('SIGHUP');
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all([...live.values()].map((p) => p.exited())),
        new Promise<void>((resolve) => {
          grace = setTimeout(resolve, SHUTDOWN_PTY_GRACE_MS);
        }),
      ]);
      clearTimeout(grace);
      for (const pane of live.values()) if (pane.exit === null) pane.process.kill('SIGKILL');
      clearInterval(compaction);
      try {
        await listener.stop();
        await commandHooks.whenIdle();
        for (const pane of live.values()) pane.screen.dispose();
        guards.flush();
        storeClosed = true;
        store.close();
      } catch (error) {
        log.error({ err: error }, 'clean shutdown failed');
        throw error;
      } finally {
        storeClosed = true;
        claim.release();
        log.flush?.();
      }
    },
    gc: (o = {}) => compact(o.full === true),
    createPane(p) {
      const tabId = `t${randomUUID().slice(0, 8)}`;
      const handle = `pane-${tabId.slice(1)}`;
      const paneKey = `${tabId}:${randomUUID()}`;
      // Why: an empty program name is not "no program": the PTY would quietly start a shell.
      if (p.argv.length === 0 || p.argv[0] === '')
        throw new HostError('ORCA_HOST_USAGE', 'a pane needs a command to run; the command is empty');
      const record = {
        handle,
        paneKey,
        tabId,
        name: p.name ?? null,
        cwd: p.cwd ?? process.cwd(),
        argv: [...p.argv],
        guest: p.guest ?? null,
        agent: null,
        createdAt: now(),
      };
      const identity = { ORCA_PANE_KEY: paneKey, ORCA_TAB_ID: tabId };
      // Why: a guest pane never gets the host token; its hook script reads the guest's endpoint file.
      const inGuest = p.guest ? guests.paneArgv(p.guest, p.argv, { ...identity, ...(p.env ?? {}) }, p.cwd) : null;
      const argv = inGuest ? inGuest.argv : [...p.argv];
      const env = p.guest
        ? { ...baseEnv, TERM: 'xterm-256color' }
        : {
            ...baseEnv,
            TERM: 'xterm-256color',
            ...(p.env ?? {}),
            ...paneHookEnv(endpoint, paths.endpointEnv),
            ...identity,
          };
      store.insertPane(record);
      const pane = startLivePane({
        record: { ...record, argv, title: null, exitedAt: null, exitCode: null, exitSignal: null, exitCause: null },
        env,
        ...(inGuest?.localCwd ? { spawnCwd: inGuest.localCwd } : {}),
        ...(p.cols !== undefined ? { cols: p.cols } : {}),
        ...(p.rows !== undefined ? { rows: p.rows } : {}),
        now,
        onVerdict: (lp, verdict) => {
          // Why: verdicts computed while shutting down describe the kill, not the agent; the last real one is kept.
          if (stopping) return;
          const at = now();
          const previous = store.latestVerdict(lp.record.handle);
          if (previous?.status === 'working' && verdict.status === 'idle') commandHooks.stop(lp.record);
          store.insertVerdict({
            handle: lp.record.handle,
            at,
            status: verdict.status,
            isRunningAgent: verdict.isRunningAgent,
            agentWait: storedWait(verdict),
          });
          for (const l of verdictListeners) l({ handle: lp.record.handle, at, verdict });
        },
        onExit: (lp, exit) => {
          if (storeClosed) return;
          const cause = stopping ? 'host-restart' : 'exit';
          store.markPaneExited(lp.record.handle, { at: now(), code: exit.code, signal: exit.signal, cause });
          log.info({ handle: lp.record.handle, ...exit }, 'pane exited');
        },
        onTitle: (lp, title) => store.setPaneTitle(lp.record.handle, title),
        onEvaluationError: (error) => log.error({ err: error }, 'status evaluation failed'),
      });
      live.set(handle, pane);
      byPaneKey.set(paneKey, pane);
      log.info({ handle, argv: record.argv[0], cwd: record.cwd }, 'pane created');
      return livePaneView(pane, false);
    },
    listPanes() {
      return store.listPanes().map((record) => {
        const pane = live.get(record.handle);
        if (pane) return livePaneView(pane, false);
        const v = store.latestVerdict(record.handle);
        return storedPaneView(record, v ? verdictFromStored(v.status, v.isRunningAgent, v.agentWait) : null);
      });
    },
    showPane(handle) {
      const pane = live.get(handle);
      if (pane) return livePaneView(pane, true);
      const record = store.getPane(handle);
      if (!record) throw refusal('terminal_handle_stale', `no pane ${handle}; run \`orca ls\` to see the panes`);
      const v = store.latestVerdict(handle);
      return storedPaneView(record, v ? verdictFromStored(v.status, v.isRunningAgent, v.agentWait) : null);
    },
    livePane: requireLive,
    send(handle, text) {
      const pane = requireLive(handle);
      if (pane.exit) throw refusal('terminal_guard_not_writable', `pane ${handle} has exited`);
      pane.write(text);
      return Buffer.byteLength(text);
    },
    dispatchInject(handle, prompt, o = {}) {
      return dispatchPrompt(requireLive(handle), handle, prompt, {
        now,
        commandHooks,
        ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      });
    },
    async wait(handle, mode, timeoutMs = DEFAULT_WAIT_TIMEOUT_MS) {
      const pane = requireLive(handle);
      const deadline = now() + timeoutMs;
      if (mode === 'exit') {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const exit = await Promise.race([
          pane.exited(),
          new Promise<null>((resolve) => {
            timer = setTimeout(() => resolve(null), timeoutMs);
          }),
        ]);
        clearTimeout(timer);
        if (!exit) throw refusal('timeout', `${handle} did not exit within ${Math.round(timeoutMs / 1000)} s`);
        return { satisfied: true, exit };
      }
      for (;;) {
        await pane.screen.settled();
        const idle = await pane.status.tuiIdle({
          lastOutputAt: pane.lastOutputAt,
          acceptedPromptThisGeneration: pane.acceptedPrompt,
        });
        if (idle.state === 'satisfied') return { satisfied: true };
        if (idle.state === 'blocked') return { satisfied: false, blockedReason: idle.blockedReason };
        if (pane.exit) return { satisfied: false, exit: pane.exit };
        const wakeAt = Math.min(idle.recheckAt, deadline);
        if (now() >= deadline)
          throw refusal('timeout', `${handle} was not idle within ${Math.round(timeoutMs / 1000)} s`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, wakeAt - now()));
          const off = pane.onChange(done);
          function done(): void {
            clearTimeout(timer);
            off();
            resolve();
          }
        });
      }
    },
    onVerdict(l) {
      verdictListeners.add(l);
      return () => verdictListeners.delete(l);
    },
    ingest,
    hookStats: () => listener.stats(),
    agentVersions,
    installHooks: (o = {}) => installHooks({ ...o, versions: agentVersions }),
  };
  let rpcServer: RpcSocketServer | null = null;
  if (opts.serveRpc !== false) {
    try {
      rpcServer = await startRuntimeServer(host, {
        runtimeId: randomUUID(),
        ...(opts.listen ? { tcp: opts.listen } : {}),
      });
    } catch (error) {
      await host.stop().catch(() => undefined);
      throw error;
    }
    log.info({ socket: paths.socket, tcpPort: rpcServer.tcpPort }, 'runtime RPC listening');
  }
  // Why: guests outlive a restart like panes do; their relays start again in the background.
  guests.restore();
  return { ...host, rpcTcpPort: rpcServer?.tcpPort ?? null };
}
