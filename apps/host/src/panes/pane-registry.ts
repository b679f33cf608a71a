import { randomUUID } from 'node:crypto';
import { InvalidArgumentError } from '@orca/wire/rpc';
import { DEFAULT_PANE_COLS, DEFAULT_PANE_ROWS } from '../constants.ts';
import { HostError, refusal } from '../errors.ts';
import type { GuestRegistry } from '../guests/guests.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { HookTimingSink } from '../status/hook-timing.ts';
import type { PaneRecord, Store } from '../store/store.ts';
import type { AdoptedPane } from './adopted-pane.ts';
import { checkLaunch } from './launch-check.ts';
import { type LivePane, startLivePane } from './live-pane.ts';
import type { CreatePaneOptions } from './pane-options.ts';
import { localPaneSpawner, type PaneProcess, type PaneSpawner } from './pane-process.ts';
import { livePaneView, type PaneView, storedPaneView } from './pane-view.ts';
import { candidateOf } from './resume-candidates.ts';
import type { ScreenEngine } from './screen.ts';
import type { VerdictPublisher } from './verdict-publisher.ts';

/** Options of {@link createPaneRegistry}. */
export interface PaneRegistryOptions {
  readonly store: Store;
  readonly guests: GuestRegistry;
  readonly log: HostLogger;
  readonly now: () => number;
  /** Environment every local pane starts from (no inherited `ORCA_*`). */
  readonly baseEnv: Readonly<Record<string, string>>;
  /** The hook endpoint variables of a local pane (token, port, endpoint file). */
  readonly hookEnv: () => Readonly<Record<string, string>>;
  /** A live pane's verdict changed; `previous` is what it published before (null: nothing yet). */
  /** Where every verdict goes (stored, broadcast) and where every view reads it from. */
  readonly verdicts: VerdictPublisher;
  /** A live pane learned which agent it runs (its first hook event naming one). */
  readonly onAgent: (pane: LivePane, agent: string) => void;
  readonly onExit: (pane: LivePane, exit: NonNullable<LivePane['exit']>) => void;
  /** Where each pane's terminal emulator runs. */
  readonly screens: ScreenEngine;
  /** Where panes' processes start (default: PTYs in this process). */
  readonly spawner?: () => PaneSpawner;
  /** Receives where each hook event's time went (the fleet bench); absent: nothing is timed. */
  readonly hookTiming?: HookTimingSink;
}

/** The panes of this host run: created here, listed with the stored ones, looked up by handle or key. */
export interface PaneRegistry {
  create(opts: CreatePaneOptions): Promise<PaneView>;
  /** Takes over a pane the PTY keeper kept running while no host was attached. */
  adopt(record: PaneRecord, adopted: AdoptedPane): LivePane;
  list(): PaneView[];
  show(handle: string): PaneView;
  /** Forgets an exited pane (live registry and store); a running one is refused. */
  remove(handle: string): void;
  /** The live pane, or the `terminal_handle_stale` refusal. */
  live(handle: string): LivePane;
  /** The live pane of this run, or undefined. */
  find(handle: string): LivePane | undefined;
  byPaneKey(paneKey: string): LivePane | undefined;
  all(): readonly LivePane[];
}

function storedView(store: Store, verdicts: VerdictPublisher, handle: string): PaneView | null {
  const record = store.getPane(handle);
  if (!record) return null;
  return storedPaneView(record, verdicts.latest(handle));
}

/** Builds the registry; panes are spawned by {@link PaneRegistry.create}. */
export function createPaneRegistry(o: PaneRegistryOptions): PaneRegistry {
  const live = new Map<string, LivePane>();
  const byKey = new Map<string, LivePane>();
  const requireLive = (handle: string): LivePane => {
    const pane = live.get(handle);
    if (!pane) {
      throw refusal('terminal_handle_stale', `no live pane ${handle}; run \`orca ls\` to see the panes`, { handle });
    }
    return pane;
  };
  const withQueued = (view: PaneView): PaneView => {
    const queued = o.store.countPendingQueueItems(view.handle);
    let out = queued > 0 ? { ...view, queued } : view;
    // Why: a pane of this run that ended with its keeper is offered for a resume like a stored one.
    if (view.exited && !('resume' in view)) {
      const record = o.store.getPane(view.handle);
      const candidate = record ? candidateOf(record) : null;
      if (candidate) out = { ...out, resume: candidate.plan };
      if (record?.resumedAs) out = { ...out, resumedAs: record.resumedAs };
    }
    return out;
  };
  const run = (
    record: Omit<PaneRecord, 'agent'> & { agent?: string | null },
    proc: PaneProcess,
    cols: number,
    rows: number,
    replay?: string,
  ): LivePane => {
    const { agent: _agent, ...rest } = record;
    const pane = startLivePane({
      record: rest,
      process: proc,
      cols,
      rows,
      ...(replay ? { replay } : {}),
      now: o.now,
      screens: o.screens,
      onVerdict: o.verdicts.publish,
      onAgent: o.onAgent,
      onExit: o.onExit,
      onTitle: (lp, title) => o.store.setPaneTitle(lp.record.handle, title),
      onEvaluationError: (error) => o.log.error({ err: error }, 'status evaluation failed'),
      ...(o.hookTiming ? { hookTiming: o.hookTiming } : {}),
    });
    live.set(record.handle, pane);
    byKey.set(record.paneKey, pane);
    return pane;
  };
  return {
    async create(p) {
      // Why: an empty program name is not "no program": the PTY would quietly start a shell.
      if (p.argv.length === 0 || p.argv[0] === '')
        throw new HostError('ORCA_HOST_USAGE', 'a pane needs a command to run; the command is empty');
      const tabId = `t${randomUUID().slice(0, 8)}`;
      const handle = `pane-${tabId.slice(1)}`;
      const paneKey = `${tabId}:${randomUUID()}`;
      const record = {
        handle,
        paneKey,
        tabId,
        name: p.name ?? null,
        cwd: p.cwd ?? process.cwd(),
        argv: [...p.argv],
        guest: p.guest ?? null,
        createdAt: o.now(),
      };
      const identity = { ORCA_PANE_KEY: paneKey, ORCA_TAB_ID: tabId };
      // Why: a guest pane never gets the host token; its hook script reads the guest's endpoint file.
      const inGuest = p.guest ? o.guests.paneArgv(p.guest, p.argv, { ...identity, ...(p.env ?? {}) }, p.cwd) : null;
      const argv = inGuest ? inGuest.argv : [...p.argv];
      const env = p.guest
        ? { ...o.baseEnv, TERM: 'xterm-256color' }
        : { ...o.baseEnv, TERM: 'xterm-256color', ...(p.env ?? {}), ...o.hookEnv(), ...identity };
      const cols = p.cols ?? DEFAULT_PANE_COLS;
      const rows = p.rows ?? DEFAULT_PANE_ROWS;
      const [file, ...args] = argv;
      if (!inGuest) checkLaunch(file ?? '/bin/sh', record.cwd, (env as Record<string, string | undefined>).PATH);
      // Why: stored first, so a hook the program posts at once is not dropped as an unknown pane.
      o.store.insertPane({
        ...record,
        agent: null,
        launch: { env: { ...(p.env ?? {}) }, ...(p.cols ? { cols } : {}), ...(p.rows ? { rows } : {}) },
      });
      let proc: PaneProcess;
      try {
        proc = await (o.spawner?.() ?? localPaneSpawner).spawn(handle, {
          file: file ?? '/bin/sh',
          args,
          cwd: inGuest?.localCwd ?? record.cwd,
          env,
          cols,
          rows,
        });
      } catch (error) {
        o.store.deletePane(handle);
        o.verdicts.forget(handle);
        throw error;
      }
      const pane = run(
        { ...record, argv, title: null, exitedAt: null, exitCode: null, exitSignal: null, exitCause: null },
        proc,
        cols,
        rows,
      );
      proc.ready?.(0);
      o.log.info(
        { handle, argv: record.argv[0], cwd: record.cwd, pid: proc.pid, kept: proc.kept === true },
        'pane created',
      );
      return livePaneView(pane, o.verdicts.current(pane.record.handle), false);
    },
    adopt(record, adopted) {
      const pane = run(record, adopted.process, adopted.cols, adopted.rows, adopted.replay);
      adopted.process.ready(adopted.to);
      // Why: it may have ended while no host was attached, or between the hello and this attach.
      if (adopted.exit) adopted.process.exit(adopted.exit);
      o.log.info(
        { handle: record.handle, pid: adopted.process.pid, truncated: adopted.truncated },
        'pane taken over from the PTY keeper',
      );
      return pane;
    },
    list() {
      return o.store.listPanes().map((record) => {
        const pane = live.get(record.handle);
        const view = pane
          ? livePaneView(pane, o.verdicts.current(pane.record.handle), false)
          : (storedView(o.store, o.verdicts, record.handle) as PaneView);
        return withQueued(view);
      });
    },
    show(handle) {
      const pane = live.get(handle);
      if (pane) return withQueued(livePaneView(pane, o.verdicts.current(pane.record.handle), true));
      const view = storedView(o.store, o.verdicts, handle);
      if (!view) throw refusal('terminal_handle_stale', `no pane ${handle}; run \`orca ls\` to see the panes`);
      return withQueued(view);
    },
    remove(handle) {
      const pane = live.get(handle);
      if (pane && !pane.exit)
        throw new InvalidArgumentError(`pane ${handle} is still running; only an exited pane can be removed`);
      if (!pane && !o.store.listPanes().some((r) => r.handle === handle))
        throw refusal('terminal_handle_stale', `no pane ${handle}; run \`orca ls\` to see the panes`);
      if (pane) {
        live.delete(handle);
        byKey.delete(pane.record.paneKey);
      }
      o.store.deletePane(handle);
      o.verdicts.forget(handle);
      o.log.info({ handle }, 'pane removed');
    },
    live: requireLive,
    find: (handle) => live.get(handle),
    byPaneKey: (paneKey) => byKey.get(paneKey),
    all: () => [...live.values()],
  };
}
