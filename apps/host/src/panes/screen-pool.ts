import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import {
  SCREEN_BACKLOG_HIGH_CHARS,
  SCREEN_BACKLOG_LOW_CHARS,
  SCREEN_WORKER_CALL_TIMEOUT_MS,
  SCREEN_WORKER_RESTARTS_MAX,
} from '../constants.ts';
import { HostError } from '../errors.ts';
import { inThreadScreens, type ScreenBackend, type ScreenEngine } from './screen.ts';
import { type FrozenScreen, plainFrozen, type ScreenSnapshot } from './screen-emulator.ts';
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
  /** Resolves once every worker has started (or was given up: its panes parse in this thread). */
  ready(): Promise<void>;
  /** Workers given up after failing to start or crashing too often; their panes parse in this thread. */
  retired(): number;
  /** Ends a worker abruptly (tests: the pool restarts it and rebuilds its panes from their tails). */
  crash(worker: number): Promise<void>;
  /** Ends every worker; screens still open answer from their mirrors and throw on calls. */
  close(): Promise<void>;
}

/** Options of {@link createScreenPool}. */
export interface ScreenPoolOptions {
  /** Worker threads (≥ 1). */
  readonly workers: number;
  /**
   * A worker failed: restarted with its panes rebuilt from their raw tails, or — when it never
   * started, or after {@link SCREEN_WORKER_RESTARTS_MAX} restarts — retired, its panes handed to
   * an emulator in this thread (`retired` true).
   */
  readonly onWorkerError?: (error: unknown, retired: boolean) => void;
}

/** One pane's side of the link: counters, the mirror of its screen, and what it waits for. */
interface PaneLink {
  readonly id: number;
  cols: number;
  rows: number;
  readonly scrollback: number;
  written: number;
  parsed: number;
  /** Highest write count a `sync` was sent for. */
  asked: number;
  waiters: { upTo: number; resolve: () => void }[];
  /** Output sent (UTF-16 units), and how much of it the worker reported parsed. */
  sentChars: number;
  parsedChars: number;
  /** Each sync sent: the write count and the output sent by then. */
  syncs: [written: number, sentChars: number][];
  /** The PTY was asked to pause until the worker catches up. */
  paused: boolean;
  flow: (pause: boolean) => void;
  mirrorRows: string[];
  bracketedPaste: boolean;
  title: (text: string, at: number) => void;
  /** The raw output retained by the pane screen, replayed when its worker is restarted. */
  readonly replay: () => string;
  readonly now: () => number;
  /** The emulator in this thread that took over once the pane's worker was retired. */
  fallback: ScreenBackend | null;
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
  restarts: number;
  retired: boolean;
  readonly whenStarted: { promise: Promise<void>; resolve: () => void };
}

/**
 * Starts `workers` screen workers. Writes, resizes and sync requests go out once per event-loop
 * turn; `settled()` resolves when the worker reports the pane parsed, carrying its rendered rows
 * (the mirror `renderedRows()` answers from). Snapshots, plain lines and the freeze are blocking
 * calls (`Atomics.wait` on a shared cell, the answer read with `receiveMessageOnPort`), so the
 * pane screen keeps its synchronous API; they are rare (an attach, an exit).
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
    if (closed) return;
    if (lane.ops.length === 0) setImmediate(() => flush(lane));
    lane.ops.push(op);
  };
  const onEvents = (lane: Lane, message: FromScreenWorker): void => {
    for (const event of message.events) {
      if (event[0] === 'ready') {
        lane.started = true;
        lane.whenStarted.resolve();
        continue;
      }
      const pane = lane.panes.get(event[1]);
      if (!pane) continue;
      if (event[0] === 'title') {
        pane.title(event[2], event[3]);
        continue;
      }
      pane.parsed = Math.max(pane.parsed, event[2]);
      if (event[3] !== null) pane.mirrorRows = event[3];
      if (event[4] !== null) pane.bracketedPaste = event[4];
      while (pane.syncs.length > 0 && (pane.syncs[0]?.[0] ?? Number.POSITIVE_INFINITY) <= pane.parsed) {
        pane.parsedChars = pane.syncs.shift()?.[1] ?? pane.parsedChars;
      }
      settle(pane);
      if (pane.paused) {
        if (pane.sentChars - pane.parsedChars <= SCREEN_BACKLOG_LOW_CHARS) setPaused(pane, false);
        else requestSync(lane, pane);
      }
    }
  };
  /** Asks for a `state` covering every write so far (once per write count). */
  const requestSync = (lane: Lane, pane: PaneLink): void => {
    if (pane.asked >= pane.written) return;
    pane.asked = pane.written;
    pane.syncs.push([pane.written, pane.sentChars]);
    send(lane, ['sync', pane.id]);
  };
  const setPaused = (pane: PaneLink, paused: boolean): void => {
    if (pane.paused === paused) return;
    pane.paused = paused;
    pane.flow(paused);
  };
  const settle = (pane: PaneLink): void => {
    if (pane.waiters.length === 0) return;
    const ready = pane.waiters.filter((w) => w.upTo <= pane.parsed);
    if (ready.length === 0) return;
    pane.waiters = pane.waiters.filter((w) => w.upTo > pane.parsed);
    for (const w of ready) w.resolve();
  };
  const spawn = (lane: Omit<Lane, 'worker' | 'replies' | 'signal' | 'started'> & Partial<Lane>): Lane => {
    const channel = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const worker = startWorker({ replies: channel.port2, signal }, [channel.port2]);
    // Why: the pool must never be what keeps a process alive; the panes' PTYs do that.
    worker.unref();
    const ready = Object.assign(lane, {
      worker,
      replies: channel.port1,
      signal: new Int32Array(signal),
      started: false,
    }) as Lane;
    let failure: unknown = null;
    worker.on('message', (message: FromScreenWorker) => onEvents(ready, message));
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', (code) => {
      if (closed || ready.worker !== worker) return;
      const giveUp = !ready.started || ready.restarts >= SCREEN_WORKER_RESTARTS_MAX;
      opts.onWorkerError?.(failure ?? new Error(`the screen worker exited with code ${code}`), giveUp);
      if (giveUp) retire(ready);
      else restart(ready);
    });
    return ready;
  };
  /** A worker that cannot run: its panes move to emulators in this thread, rebuilt from their tails. */
  const retire = (lane: Lane): void => {
    lane.retired = true;
    lane.ops = [];
    lane.replies.close();
    for (const pane of lane.panes.values()) {
      const fallback = inThreadScreens({
        cols: pane.cols,
        rows: pane.rows,
        scrollback: pane.scrollback,
        now: pane.now,
      });
      fallback.onTitle((text, at) => pane.title(text, at));
      const tail = pane.replay();
      if (tail.length > 0) fallback.write(tail, pane.now());
      pane.fallback = fallback;
      setPaused(pane, false);
      const waiters = pane.waiters.splice(0);
      void fallback.settled().then(() => {
        for (const w of waiters) w.resolve();
      });
    }
    lane.panes.clear();
    lane.whenStarted.resolve();
  };
  /** A dead worker's panes start again on a new one, rebuilt from the raw output their screens kept. */
  const restart = (lane: Lane): void => {
    lane.replies.close();
    lane.restarts += 1;
    spawn(lane);
    lane.ops = [];
    for (const pane of lane.panes.values()) {
      send(lane, ['open', pane.id, pane.cols, pane.rows, pane.scrollback]);
      pane.written = 0;
      pane.parsed = 0;
      pane.asked = 0;
      pane.sentChars = 0;
      pane.parsedChars = 0;
      pane.syncs = [];
      setPaused(pane, false);
      const tail = pane.replay();
      if (tail.length > 0) {
        pane.written = 1;
        send(lane, ['write', pane.id, tail, pane.now()]);
      }
      for (const w of pane.waiters) w.upTo = Math.min(w.upTo, pane.written);
      if (pane.waiters.length > 0) requestSync(lane, pane);
    }
  };
  const call = (lane: Lane, screenCall: ScreenCall): ScreenCallResult => {
    if (closed) throw new HostError('ORCA_HOST_SCREEN', 'the screen workers were stopped');
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
        if (reply.error !== undefined || reply.result === undefined) {
          throw new HostError('ORCA_HOST_SCREEN', `the screen worker failed: ${reply.error ?? 'no answer'}`);
        }
        return reply.result;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new HostError(
          'ORCA_HOST_SCREEN',
          `the screen worker did not answer within ${SCREEN_WORKER_CALL_TIMEOUT_MS} ms (it may be parsing a flood of output)`,
        );
      }
      Atomics.wait(lane.signal, 0, 0, left);
      Atomics.store(lane.signal, 0, 0);
    }
  };
  for (let i = 0; i < opts.workers; i += 1) {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    lanes.push(
      spawn({ ops: [], panes: new Map(), callSeq: 0, restarts: 0, retired: false, whenStarted: { promise, resolve } }),
    );
  }

  const engine: ScreenEngine = (screen) => {
    const open = lanes.filter((l) => !l.retired);
    if (open.length === 0 || closed) return inThreadScreens(screen);
    const { cols, rows, scrollback, replay, now } = screen;
    const lane = open.reduce((best, l) => (l.panes.size < best.panes.size ? l : best));
    const pane: PaneLink = {
      id: nextId++,
      cols,
      rows,
      scrollback,
      written: 0,
      parsed: 0,
      asked: 0,
      waiters: [],
      sentChars: 0,
      parsedChars: 0,
      syncs: [],
      paused: false,
      flow: () => undefined,
      mirrorRows: Array.from({ length: rows }, () => ''),
      bracketedPaste: false,
      title: () => undefined,
      replay: replay ?? (() => ''),
      now,
      fallback: null,
    };
    lane.panes.set(pane.id, pane);
    send(lane, ['open', pane.id, cols, rows, scrollback]);
    const backend: ScreenBackend = {
      write(display, at) {
        if (pane.fallback) return pane.fallback.write(display, at);
        pane.written += 1;
        pane.sentChars += display.length;
        send(lane, ['write', pane.id, display, at]);
        const backlog = pane.sentChars - pane.parsedChars;
        // Why: half way up, ask where the worker is, so the mark is judged on fresh numbers.
        if (backlog > SCREEN_BACKLOG_HIGH_CHARS / 2 && pane.syncs.length === 0) requestSync(lane, pane);
        if (backlog > SCREEN_BACKLOG_HIGH_CHARS) {
          setPaused(pane, true);
          requestSync(lane, pane);
        }
      },
      resize(c, r) {
        pane.cols = c;
        pane.rows = r;
        if (pane.fallback) return pane.fallback.resize(c, r);
        send(lane, ['resize', pane.id, c, r]);
      },
      settled() {
        if (pane.fallback) return pane.fallback.settled();
        if (pane.parsed >= pane.written || closed) return Promise.resolve();
        const upTo = pane.written;
        requestSync(lane, pane);
        return new Promise((resolve) => pane.waiters.push({ upTo, resolve }));
      },
      renderedRows: () => (pane.fallback ? pane.fallback.renderedRows() : [...pane.mirrorRows]),
      bracketedPaste: () => (pane.fallback ? pane.fallback.bracketedPaste() : pane.bracketedPaste),
      snapshot: (scrollbackRows, maxBytes) =>
        pane.fallback
          ? pane.fallback.snapshot(scrollbackRows, maxBytes)
          : (call(lane, ['snapshot', pane.id, scrollbackRows, maxBytes]) as ScreenSnapshot),
      currentRows: () => (pane.fallback ? pane.fallback.currentRows() : (call(lane, ['rows', pane.id]) as string[])),
      lines: (maxRows) =>
        pane.fallback ? pane.fallback.lines(maxRows) : (call(lane, ['lines', pane.id, maxRows]) as string[]),
      onTitle(listener) {
        pane.title = listener;
      },
      onFlowControl(listener) {
        pane.flow = listener;
      },
      freeze() {
        setPaused(pane, false);
        if (pane.fallback) return pane.fallback.freeze();
        const final = closed
          ? plainFrozen(pane.mirrorRows, pane.cols, pane.rows, pane.bracketedPaste)
          : (call(lane, ['freeze', pane.id]) as FrozenScreen);
        lane.panes.delete(pane.id);
        for (const w of pane.waiters.splice(0)) w.resolve();
        return final;
      },
    };
    return backend;
  };

  return {
    engine,
    size: lanes.length,
    load: () => lanes.map((l) => l.panes.size),
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
        for (const pane of lane.panes.values()) for (const w of pane.waiters.splice(0)) w.resolve();
        lane.replies.close();
      }
      await Promise.all(lanes.map((l) => l.worker.terminate()));
    },
  };
}
