import { createHookListener } from '@orca/relay/listener';
import { RUNTIME_PROTOCOL_VERSION } from '@orca/wire/compat';
import { createAgentVersions } from '../agent-hooks/agent-versions.ts';
import {
  type HookEndpoint,
  hookEndpoint,
  newHookToken,
  paneHookEnv,
  publishEndpoint,
} from '../agent-hooks/endpoint.ts';
import { createIngestGuards } from '../agent-hooks/ingest-guards.ts';
import { installHooks } from '../agent-hooks/install-hooks.ts';
import { drainSpool } from '../agent-hooks/spool.ts';
import { createHostCommandHooks } from '../command-hooks/command-hooks.ts';
import {
  APP_VERSION,
  DELIVERY_STOP_GRACE_MS,
  SHUTDOWN_PTY_GRACE_MS,
  STORE_COMPACTION_INTERVAL_MS,
} from '../constants.ts';
import { HostError } from '../errors.ts';
import { createGuestRegistry } from '../guests/guests.ts';
import { adoptKeptPanes, settleWithKeeper } from '../keeper/keeper-adoption.ts';
import { type KeeperLink, keeperHoldsClaim, openKeeperLink, refuseWhileKeeperRuns } from '../keeper/keeper-link.ts';
import { createHostNotify } from '../notify/host-notify.ts';
import { createDeliveries } from '../panes/deliveries.ts';
import { createHookIngest } from '../panes/hook-ingest.ts';
import { createPaneInjection } from '../panes/injection.ts';
import { createPaneRegistry } from '../panes/pane-registry.ts';
import { createPromptQueue, type PromptQueue } from '../panes/prompt-queue.ts';
import { inThreadScreens } from '../panes/screen.ts';
import { createScreenPool, defaultScreenWorkers, type ScreenPool } from '../panes/screen-pool.ts';
import { createVerdictPublisher } from '../panes/verdict-publisher.ts';
import { ensureDataDir } from '../runtime/data-dir.ts';
import { createHostLogger } from '../runtime/logger.ts';
import { acquireRuntimeFile, type RuntimeClaim } from '../runtime/runtime-file.ts';
import { timeHookEvent, timingNow } from '../status/hook-timing.ts';
import { openClaimedStore } from './claimed-store.ts';
import type { Host, HostOptions } from './host-types.ts';

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

/**
 * Starts a host on `dataDir`: single-instance guard, store (migrations), hook listener + endpoint
 * files, spooled events ingested. Panes are created with {@link Host.createPane}. The runtime RPC
 * server is not part of it: compose one with `startRuntimeServer(host)` (the `orca start` command does).
 *
 * @example
 * const host = await createHost({ dataDir: '/tmp/orca' });
 * const pane = host.createPane({ argv: ['claude'] });
 * host.onVerdict((c) => console.log(c.handle, c.verdict.status));
 */
export async function createHost(opts: HostOptions): Promise<Host> {
  if (opts.screenWorkers !== undefined && (!Number.isInteger(opts.screenWorkers) || opts.screenWorkers < 0)) {
    throw new HostError(
      'ORCA_HOST_USAGE',
      `screenWorkers must be a whole number ≥ 0 (0 = parse in the host thread), got ${opts.screenWorkers}`,
    );
  }
  const now = opts.now ?? Date.now;
  const paths = ensureDataDir(opts.dataDir);
  const claim: RuntimeClaim = acquireRuntimeFile(
    paths.runtimeJson,
    {
      pid: process.pid,
      socket: paths.socket,
      protocolVersion: RUNTIME_PROTOCOL_VERSION,
      appVersion: APP_VERSION,
      startedAt: now(),
    },
    // Why: only our own data dir's keeper, as its keeper.json names it, is replaced.
    opts.keeper === true ? { takeOver: (e) => e.keeper === true && keeperHoldsClaim(paths, e.pid) } : {},
  );
  const log = opts.logger ?? createHostLogger(paths.logFile);
  const { store, abandon, compact } = openClaimedStore(paths.store, claim, log, now, opts.keeper === true, () =>
    refuseWhileKeeperRuns(paths),
  );
  let keeper: KeeperLink | null = null;
  if (opts.keeper === true) {
    try {
      keeper = await openKeeperLink(paths, { log, env: opts.baseEnv ?? process.env });
    } catch (error) {
      abandon();
      throw error;
    }
  }
  const compaction = setInterval(() => {
    try {
      compact();
    } catch (error) {
      log.error({ err: error }, 'store compaction failed');
    }
  }, STORE_COMPACTION_INTERVAL_MS);
  compaction.unref();
  const abandonStart = (): void => {
    clearInterval(compaction);
    keeper?.detach();
    void screenPool?.close();
    abandon();
  };

  let stopping = false;
  // Why: a pane killed late (SIGKILL after the grace) exits after the store closed; the next start marks it.
  let storeClosed = false;
  const baseEnv = cleanBaseEnv(opts.baseEnv ?? process.env);
  // Why: agents are found on the panes' PATH; each version is asked once per host start.
  const agentVersions = createAgentVersions(baseEnv);
  const guards = createIngestGuards({ log, now, hookVersion: () => endpoint.version });
  // Why: parsing every pane's output is the host's largest cost under load; worker threads take it off the loop.
  const workers = opts.screenWorkers ?? defaultScreenWorkers();
  const screenPool: ScreenPool | null =
    workers > 0
      ? createScreenPool({
          workers,
          onWorkerError: (error, retired) =>
            log.error(
              { err: error, retired },
              retired
                ? 'screen worker retired: its panes parse in the host thread'
                : 'screen worker crashed: restarted',
            ),
        })
      : null;
  const commandHooks = createHostCommandHooks({
    store,
    ...(opts.home ? { home: opts.home } : {}),
    now,
    onError: (error) => log.warn({ err: error }, 'command hook failed'),
  });

  const notify = createHostNotify({ store, log, now, configFile: paths.notifyConfig, closed: () => storeClosed });
  const verdicts = createVerdictPublisher({
    store,
    now,
    publishing: () => !stopping,
    onTurnEnd: (lp) => commandHooks.stop(lp.record),
    onPublished: (lp, verdict, previous, at) => notify.journal.record(lp, verdict, previous, at),
  });
  let endpoint: HookEndpoint;
  // Why: guests reach the endpoint and the ingest only through closures, called once both exist.
  const guests = createGuestRegistry({
    dataDir: paths.root,
    endpointPath: paths.endpointEnv,
    hostPort: () => endpoint.port,
    hostToken: () => endpoint.token,
    ingest: (params, connectionId) => (stopping ? null : hookIngest.ingest(params, connectionId)),
    ingestSpooled: (line, connectionId) => !stopping && hookIngest.ingestSpooled(line, connectionId),
    store,
    log,
    now,
  });
  const panes = createPaneRegistry({
    store,
    guests,
    log,
    now,
    baseEnv,
    hookEnv: () => paneHookEnv(endpoint, paths.endpointEnv),
    screens: screenPool?.engine ?? inThreadScreens,
    verdicts,
    ...(opts.hookTiming ? { hookTiming: opts.hookTiming } : {}),
    ...(keeper ? { spawner: () => (keeper as KeeperLink).spawner } : {}),
    onAgent: (lp, agent) => {
      if (!storeClosed) store.setPaneAgent(lp.record.handle, agent);
    },
    onExit: (lp, exit) => {
      if (storeClosed) return;
      const cause = exit.cause ?? (stopping ? 'host-restart' : 'exit');
      if (lp.process.kept) keeper?.forget(lp.record.handle);
      store.markPaneExited(lp.record.handle, { at: now(), code: exit.code, signal: exit.signal, cause });
      log.info({ handle: lp.record.handle, ...exit }, 'pane exited');
      queue.paneExited(lp.record.handle);
    },
  });
  // Why: the registry reports exits to the queue only once both exist (an exit waits for a spawn).
  const deliveries = createDeliveries();
  const queue: PromptQueue = createPromptQueue({ store, now, log, commandHooks, livePane: panes.find, deliveries });
  const hookIngest = createHookIngest({
    store,
    guards,
    log,
    now,
    paneByKey: panes.byPaneKey,
    closed: () => storeClosed,
  });

  try {
    if (keeper) {
      // Why: before the spool drains, so hook events posted while no host ran reach live panes.
      const settled = settleWithKeeper(store, keeper, now);
      const adopted = await adoptKeptPanes(settled, { link: keeper, panes, store, log });
      log.info(
        {
          adopted,
          exitedMeanwhile: settled.exitedMeanwhile,
          gone: settled.gone,
          orphans: settled.orphans,
          keeper: keeper.keeperPid,
        },
        'panes settled with the PTY keeper',
      );
    }
  } catch (error) {
    guests.disposeAll();
    abandonStart();
    throw error;
  }
  const token = newHookToken();
  const listener = createHookListener({
    token,
    ...(opts.hookPort !== undefined ? { port: opts.hookPort } : {}),
    // Why: the 204 goes out once the row is committed, so an acknowledged event survives a crash.
    onEvent: (event) => {
      const arrivedAt = opts.hookTiming ? timingNow() : 0;
      const accepted = hookIngest.ingestLocal(event);
      const committed = store.committed();
      const pane = accepted && opts.hookTiming ? panes.byPaneKey(accepted.paneKey) : undefined;
      if (accepted && pane && pane.exit === null) {
        timeHookEvent({ handle: pane.record.handle, timing: pane.timing }, accepted, arrivedAt, committed);
      }
      return committed;
    },
    log: {
      debug: (msg) => log.debug(msg),
      info: (msg) => log.info(msg),
      warn: (msg) => log.warn(msg),
      error: (msg) => log.error(msg),
    },
  });
  try {
    const bound = await listener.start();
    // Why: raw-json-v1 spares each hook script the form encoding of its payload (issue 13); `form` opts out.
    endpoint = hookEndpoint(bound.port, token, opts.hookTransport === 'form' ? undefined : 'raw-json-v1');
    await publishEndpoint(paths.agentHooksDir, endpoint);
    log.info({ port: bound.port, fallback: bound.fallback }, 'hook listener bound');
  } catch (error) {
    guests.disposeAll();
    await listener.stop().catch(() => undefined);
    abandonStart();
    throw error;
  }
  try {
    const spooled = await drainSpool(
      paths.spoolDir,
      (line) => hookIngest.ingestSpooled(line, 'local'),
      () => store.committed(),
    );
    if (spooled.accepted + spooled.dropped > 0) log.info(spooled, 'spooled hook events ingested');
  } catch (error) {
    guests.disposeAll();
    await listener.stop().catch(() => undefined);
    abandonStart();
    throw error;
  }
  const injection = createPaneInjection({ livePane: panes.live, now, commandHooks, deliveries });
  // Why: after the spool, so a prompt hook a stopped host never saw can prove a delivery it began.
  queue.recover();

  const stop = async (o: { panes?: 'keep' | 'end' } = {}): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // Why: first, so panes killed below leave their queued prompts queued for the next start, and a
    // prompt whose text is in gets its submit key before the panes end or the keeper is left.
    queue.stop();
    notify.stop();
    await deliveries.stop(DELIVERY_STOP_GRACE_MS);
    guests.disposeAll();
    // Why: panes the keeper holds outlive this host unless asked to end (`orca stop --all`).
    const endKept = o.panes === 'end';
    if (keeper && endKept) await keeper.stopKeeper();
    const live = panes.all().filter((p) => !p.process.kept || endKept);
    for (const pane of live) pane.process.kill('SIGHUP');
    let grace: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(live.map((p) => p.exited())),
      new Promise<void>((resolve) => {
        grace = setTimeout(resolve, SHUTDOWN_PTY_GRACE_MS);
      }),
    ]);
    clearTimeout(grace);
    for (const pane of live) if (pane.exit === null) pane.process.kill('SIGKILL');
    clearInterval(compaction);
    try {
      await listener.stop();
      await commandHooks.whenIdle();
      for (const pane of panes.all()) pane.screen.dispose();
      if (!endKept) keeper?.detach();
      await screenPool?.close();
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
  };

  // Why: guests outlive a restart like panes do; their relays start again in the background.
  guests.restore();
  return {
    paths,
    store,
    endpoint,
    log,
    commandHooks,
    guests,
    stop,
    gc: (o = {}) => compact(o.full === true),
    createPane: panes.create,
    keeperPid: () => keeper?.keeperPid ?? null,
    listPanes: panes.list,
    showPane: panes.show,
    removePane: panes.remove,
    livePane: panes.live,
    send: injection.send,
    dispatchInject: injection.dispatch,
    queue,
    notify,
    wait: injection.wait,
    onVerdict(l) {
      return verdicts.subscribe(l);
    },
    ingest: hookIngest.ingest,
    hookStats: () => listener.stats(),
    screenLoad: () => screenPool?.load() ?? [],
    screenBacklog: () => screenPool?.backlog(now()) ?? [],
    agentVersions,
    installHooks: (o = {}) => installHooks({ ...o, versions: agentVersions }),
  };
}
