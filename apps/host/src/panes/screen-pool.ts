import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import {
  SCREEN_BACKLOG_HIGH_CHARS,
  SCREEN_BACKLOG_LOW_CHARS,
  SCREEN_WORKER_CALL_TIMEOUT_MS,
  SCREEN_WORKER_RESTART_WINDOW_MS,
  SCREEN_WORKER_RESTARTS_MAX,
} from '../constants.ts';
import { HostError } from '../errors.ts';
import { inThreadScreens, type ScreenBackend, type ScreenEngine } from './screen.ts';
import type { FrozenScreen, ScreenSnapshot } from './screen-emulator.ts';
import { acknowledge, fromMirror, newPaneLink, type PaneLink, rebuildInputs, settleWaiters } from './screen-link.ts';
import type {
  FromScreenWorker,
  ScreenCall,
  ScreenCallReply,
  ScreenCallResult,
  ScreenOp,
  ToScreenWorker,
} from './screen-protocol.ts';
import { startWorker } from './screen-worker-start.ts';

export { defaultScreenWorkers } from './screen-worker-start.ts';

/** Emulators in worker threads: the host's event loop keeps only I/O and verdict fusion. */
export interface ScreenPool {
  /** Opens pane screens on the least busy worker (pass it to `createPaneScreen`). */
  readonly engine: ScreenEngine;
  /** Worker threads in the pool. */
  readonly size: number;
  /** Panes placed on each worker (diagnostics, tests). */
  load(): number[];
  /** What each worker has still to parse, as of `now` (ms since the epoch): see {@link ScreenBacklog}. */
  backlog(now: number): ScreenBacklog[];
  /** Resolves once every worker has started (or was given up: its panes parse in this thread). */
  ready(): Promise<void>;
  /** Workers given up after failing to start or crashing too often; their panes parse in this thread. */
  retired(): number;
  /** Ends a worker abruptly (tests: the pool restarts it and rebuilds its panes from their mirrors). */
  crash(worker: number): Promise<void>;
  /** Ends every worker; screens still open answer from their mirrors. */
  close(): Promise<void>;
}

/** Options of {@link createScreenPool}. */
export interface ScreenPoolOptions {
  /** Worker threads (≥ 1). */
  readonly workers: number;
  /**
   * A worker failed: restarted with its panes rebuilt from their mirrors and unparsed input, or —
   * when it never started, or crashed more than {@link SCREEN_WORKER_RESTARTS_MAX} times within
   * {@link SCREEN_WORKER_RESTART_WINDOW_MS} — retired, its panes handed to emulators in this
   * thread, rebuilt the same way (`retired` true).
   */
  readonly onWorkerError?: (error: unknown, retired: boolean) => void;
}

/** One screen worker's backlog: what its panes sent it and it has not reported parsed. */
export interface ScreenBacklog {
  /** Output waiting to be parsed, over all its panes (UTF-16 units). */
  readonly chars: number;
  /** Age of the oldest unparsed write (ms); 0 when nothing waits. */
  readonly behindMs: number;
}

/** The backlog of one lane's panes at `now`. */
function laneBacklog(panes: Iterable<PaneLink>, now: number): ScreenBacklog {
  let chars = 0;
  let oldest = now;
  for (const link of panes) {
    chars += link.pendingChars;
    const first = link.pending.find((p) => p !== null);
    if (first && first.at < oldest) oldest = first.at;
  }
  return { chars, behindMs: now - oldest };
}

interface Lane {
  worker: Worker;
  replies: MessagePort;
  signal: Int32Array;
  ops: ScreenOp[];
  readonly panes: Map<number, PaneLink>;
  callSeq: number;
  /** The current worker sent `ready`. */
  started: boolean;
  /** The current worker exited (a blocking call to it fails at once). */
  exited: boolean;
  /** When the lane's workers crashed (ms), within {@link SCREEN_WORKER_RESTART_WINDOW_MS}. */
  crashes: number[];
  retired: boolean;
  readonly whenStarted: { promise: Promise<void>; resolve: () => void };
}

/**
 * Starts `workers` screen workers. Writes, resizes and sync requests go out once per event-loop
 * turn; `settled()` resolves when the worker reports the pane parsed, carrying its rendered rows
 * (the mirror `renderedRows()` answers from). Snapshots, plain lines and the freeze are blocking
 * calls (`Atomics.wait` on a shared cell, the answer read with `receiveMessageOnPort`), so the
 * pane screen keeps its synchronous API; they are rare (an attach, an exit), and one the worker
 * cannot answer in time is answered from the mirror.
 *
 * @example
 * const pool = createScreenPool({ workers: 1 });
 * const screen = createPaneScreen({ cols: 80, rows: 24, engine: pool.engine });
 */
export function createScreenPool(opts: ScreenPoolOptions): ScreenPool {
  if (!Number.isInteger(opts.workers) || opts.workers < 1) {
    throw new HostError('ORCA_HOST_USAGE', `a screen pool needs at least one worker (got ${opts.workers})`);
  }
  let nextId = 1;
  let closed = false;
  const lanes: Lane[] = [];

  const flush = (lane: Lane): void => {
    if (lane.ops.length === 0) return;
    const message: ToScreenWorker = { ops: lane.ops };
    lane.ops = [];
    lane.worker.postMessage(message);
  };
  const send = (lane: Lane, op: ScreenOp): void => {
    if (closed || lane.retired) return;
    if (lane.ops.length === 0) setImmediate(() => flush(lane));
    lane.ops.push(op);
  };
  /** Sends an input (a write, or a resize when `data` is null) and keeps it until it is parsed. */
  const input = (lane: Lane, link: PaneLink, op: ScreenOp, data: { data: string; at: number } | null): void => {
    link.written += 1;
    link.pending.push(data);
    if (data) link.pendingChars += data.data.length;
    send(lane, op);
  };
  const onEvents = (lane: Lane, message: FromScreenWorker): void => {
    for (const event of message.events) {
      if (event[0] === 'ready') {
        lane.started = true;
        lane.whenStarted.resolve();
        continue;
      }
      const link = lane.panes.get(event[1]);
      if (!link) continue;
      if (event[0] === 'title') {
        link.title(event[2], event[3]);
        continue;
      }
      link.syncOutstanding = false;
      acknowledge(link, event[2]);
      if (event[3] !== null) link.mirrorRows = Object.freeze(event[3]);
      if (event[4] !== null) link.modes = event[4];
      settleWaiters(link);
      if (link.paused) {
        if (link.pendingChars <= SCREEN_BACKLOG_LOW_CHARS) setPaused(link, false);
        else requestSync(lane, link);
      }
    }
  };
  /** Asks for a `state` covering every input so far (once per input count). */
  const requestSync = (lane: Lane, link: PaneLink): void => {
    if (link.asked >= link.written) return;
    link.asked = link.written;
    link.syncOutstanding = true;
    send(lane, ['sync', link.id]);
  };
  const setPaused = (link: PaneLink, paused: boolean): void => {
    if (link.paused === paused) return;
    link.paused = paused;
    link.flow(paused);
  };
  const spawn = (lane: Lane): void => {
    const channel = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const worker = startWorker({ replies: channel.port2, signal }, [channel.port2]);
    // Why: the pool must never be what keeps a process alive; the panes' PTYs do that.
    worker.unref();
    Object.assign(lane, {
      worker,
      replies: channel.port1,
      signal: new Int32Array(signal),
      started: false,
      exited: false,
    });
    let failure: unknown = null;
    worker.on('message', (message: FromScreenWorker) => onEvents(lane, message));
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', (code) => {
      if (closed || lane.worker !== worker) return;
      lane.exited = true;
      const now = Date.now();
      lane.crashes = [...lane.crashes.filter((at) => now - at < SCREEN_WORKER_RESTART_WINDOW_MS), now];
      const giveUp = !lane.started || lane.crashes.length > SCREEN_WORKER_RESTARTS_MAX;
      opts.onWorkerError?.(failure ?? new Error(`the screen worker exited with code ${code}`), giveUp);
      if (giveUp) retire(lane);
      else restart(lane);
    });
  };
  /** A worker that cannot run: each of its panes gets an emulator in this thread, rebuilt from its link. */
  const retire = (lane: Lane): void => {
    lane.retired = true;
    lane.ops = [];
    lane.replies.close();
    for (const link of lane.panes.values()) {
      const fallback = inThreadScreens({
        cols: link.cols,
        rows: link.rows,
        scrollback: link.scrollback,
        now: link.now,
      });
      for (const { data, at } of rebuildInputs(link)) fallback.write(data, at);
      link.fallback = fallback;
      setPaused(link, false);
      const waiters = link.waiters.splice(0);
      void fallback.settled().then(() => {
        // Why: titles the lost worker already reported are not reported again by the rebuild.
        fallback.onTitle((text, at) => link.title(text, at));
        for (const w of waiters) w.resolve();
      });
    }
    lane.panes.clear();
    lane.whenStarted.resolve();
  };
  /** A dead worker's panes start again on a new one, rebuilt from their mirrors and unparsed input. */
  const restart = (lane: Lane): void => {
    lane.replies.close();
    spawn(lane);
    lane.ops = [];
    for (const link of lane.panes.values()) {
      const inputs = rebuildInputs(link);
      link.written = 0;
      link.parsed = 0;
      link.asked = 0;
      link.syncOutstanding = false;
      link.pending = [];
      link.pendingChars = 0;
      setPaused(link, false);
      send(lane, ['open', link.id, link.cols, link.rows, link.scrollback]);
      for (const one of inputs) input(lane, link, ['write', link.id, one.data, one.at], one);
      for (const w of link.waiters) w.upTo = link.written;
      if (link.waiters.length > 0) requestSync(lane, link);
    }
  };
  /** A blocking call; null when the worker cannot answer (stopped, exited, failed, or too slow). */
  const call = (lane: Lane, screenCall: ScreenCall): ScreenCallResult | null => {
    if (closed || lane.exited) return null;
    flush(lane);
    const seq = ++lane.callSeq;
    Atomics.store(lane.signal, 0, 0);
    const message: ToScreenWorker = { call: { seq, call: screenCall } };
    lane.worker.postMessage(message);
    const deadline = Date.now() + SCREEN_WORKER_CALL_TIMEOUT_MS;
    for (;;) {
      const received = receiveMessageOnPort(lane.replies);
      if (received) {
        const reply = received.message as ScreenCallReply;
        if (reply.seq !== seq) continue; // the late answer of a call that timed out
        return reply.result ?? null;
      }
      const left = deadline - Date.now();
      if (left <= 0) return null;
      Atomics.wait(lane.signal, 0, 0, left);
      Atomics.store(lane.signal, 0, 0);
    }
  };
  for (let i = 0; i < opts.workers; i += 1) {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    // Why: the worker, its ports and its flags are set by spawn, which every restart calls again.
    const lane = {
      ops: [],
      panes: new Map(),
      callSeq: 0,
      crashes: [],
      retired: false,
      whenStarted: { promise, resolve },
    };
    spawn(lane as unknown as Lane);
    lanes.push(lane as unknown as Lane);
  }

  const engine: ScreenEngine = (screen) => {
    const open = lanes.filter((l) => !l.retired);
    if (open.length === 0 || closed) return inThreadScreens(screen);
    const lane = open.reduce((best, l) => (l.panes.size < best.panes.size ? l : best));
    const link = newPaneLink(nextId++, screen);
    lane.panes.set(link.id, link);
    send(lane, ['open', link.id, screen.cols, screen.rows, screen.scrollback]);
    const backend: ScreenBackend = {
      write(display, at) {
        if (link.fallback) return link.fallback.write(display, at);
        input(lane, link, ['write', link.id, display, at], { data: display, at });
        // Why: half way up, ask where the worker is, so the mark is judged on fresh numbers — one
        // question at a time: a sync per write made the worker render its rows for every chunk.
        if (link.pendingChars > SCREEN_BACKLOG_HIGH_CHARS / 2 && !link.syncOutstanding) requestSync(lane, link);
        if (link.pendingChars > SCREEN_BACKLOG_HIGH_CHARS) setPaused(link, true);
      },
      resize(c, r) {
        link.cols = c;
        link.rows = r;
        if (link.fallback) return link.fallback.resize(c, r);
        input(lane, link, ['resize', link.id, c, r], null);
      },
      settled() {
        if (link.fallback) return link.fallback.settled();
        if (link.parsed >= link.written || closed || lane.retired) return Promise.resolve();
        const upTo = link.written;
        requestSync(lane, link);
        return new Promise((resolve) => link.waiters.push({ upTo, resolve }));
      },
      caughtUp: () =>
        link.fallback ? link.fallback.caughtUp() : link.parsed >= link.written || closed || lane.retired,
      renderedRows: () => (link.fallback ? link.fallback.renderedRows() : fromMirror.rows(link)),
      bracketedPaste: () => (link.fallback ? link.fallback.bracketedPaste() : link.modes.bracketedPaste),
      snapshot(scrollbackRows, maxBytes) {
        if (link.fallback) return link.fallback.snapshot(scrollbackRows, maxBytes);
        const answer = call(lane, ['snapshot', link.id, scrollbackRows, maxBytes]) as ScreenSnapshot | null;
        return answer ?? fromMirror.snapshot(link, maxBytes);
      },
      currentRows() {
        if (link.fallback) return link.fallback.currentRows();
        return (call(lane, ['rows', link.id]) as string[] | null) ?? [...fromMirror.rows(link)];
      },
      lines(maxRows) {
        if (link.fallback) return link.fallback.lines(maxRows);
        return (call(lane, ['lines', link.id, maxRows]) as string[] | null) ?? fromMirror.lines(link, maxRows);
      },
      onTitle(listener) {
        link.title = listener;
      },
      onFlowControl(listener) {
        link.flow = listener;
      },
      freeze() {
        setPaused(link, false);
        if (link.fallback) return link.fallback.freeze();
        // Why: whatever the worker answers, the pane leaves it and nothing waits on it any longer.
        const final = (call(lane, ['freeze', link.id]) as FrozenScreen | null) ?? fromMirror.frozen(link);
        lane.panes.delete(link.id);
        if (!lane.exited && !closed) send(lane, ['close', link.id]);
        for (const w of link.waiters.splice(0)) w.resolve();
        return final;
      },
    };
    return backend;
  };

  return {
    engine,
    size: lanes.length,
    load: () => lanes.map((l) => l.panes.size),
    backlog: (now) => lanes.map((l) => laneBacklog(l.panes.values(), now)),
    ready: () => Promise.all(lanes.map((l) => l.whenStarted.promise)).then(() => undefined),
    retired: () => lanes.filter((l) => l.retired).length,
    async crash(index) {
      const lane = lanes[index];
      if (lane && !lane.retired) await lane.worker.terminate();
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const lane of lanes) {
        for (const link of lane.panes.values()) for (const w of link.waiters.splice(0)) w.resolve();
        lane.replies.close();
      }
      await Promise.all(lanes.map((l) => l.worker.terminate()));
    },
  };
}
