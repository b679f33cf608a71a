// A screen worker: the `@xterm/headless` emulators of the panes a screen pool placed here. It parses
// their output off the host's event loop and answers with rendered rows, titles and snapshots.
// Protocol: ./screen-protocol.ts; the host side is ./screen-pool.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { createEmulator, type Emulator, joinLines, snapshotWithin } from './screen-emulator.ts';
import type {
  FromScreenWorker,
  ScreenCall,
  ScreenCallReply,
  ScreenCallResult,
  ScreenEvent,
  ScreenOp,
  ScreenWorkerData,
  ToScreenWorker,
} from './screen-protocol.ts';

interface Pane {
  readonly emulator: Emulator;
  /** Arrival times of the writes not yet parsed, oldest first (a title takes its write's time). */
  readonly pendingAt: number[];
  parsed: number;
  /** The screen changed since the last state sent. */
  dirty: boolean;
}

const port = parentPort;
if (!port) throw new Error('screen-worker.ts runs only as a worker thread');
const { replies, signal } = workerData as ScreenWorkerData;
const signalCell = new Int32Array(signal);
const panes = new Map<number, Pane>();
let events: ScreenEvent[] = [];

function emit(event: ScreenEvent): void {
  if (events.length === 0) setImmediate(flushEvents);
  events.push(event);
}

function flushEvents(): void {
  const batch: FromScreenWorker = { events };
  events = [];
  port?.postMessage(batch);
}

function open(id: number, cols: number, rows: number, scrollback: number): void {
  const pane: Pane = { emulator: createEmulator({ cols, rows, scrollback }), pendingAt: [], parsed: 0, dirty: true };
  pane.emulator.onTitle((text) => emit(['title', id, text, pane.pendingAt[0] ?? Date.now()]));
  panes.set(id, pane);
}

function apply(op: ScreenOp): void {
  if (op[0] === 'open') {
    open(op[1], op[2], op[3], op[4]);
    return;
  }
  const pane = panes.get(op[1]);
  if (!pane) return;
  switch (op[0]) {
    case 'write':
      pane.pendingAt.push(op[3]);
      pane.emulator.write(op[2], () => {
        pane.pendingAt.shift();
        pane.parsed += 1;
        pane.dirty = true;
      });
      return;
    case 'resize': {
      const [, , cols, rows] = op;
      // Why: in order with the writes; a resize applied ahead of queued output would lay it out wrongly.
      pane.emulator.write('', () => {
        pane.emulator.resize(cols, rows);
        pane.parsed += 1;
        pane.dirty = true;
      });
      return;
    }
    case 'sync': {
      const id = op[1];
      // Why: the emulator calls back in write order, so this runs once every earlier write is parsed.
      pane.emulator.write('', () => {
        if (pane.dirty) emit(['state', id, pane.parsed, pane.emulator.renderedRows(), pane.emulator.modes()]);
        else emit(['state', id, pane.parsed, null, null]);
        pane.dirty = false;
      });
      return;
    }
    case 'close':
      pane.emulator.dispose();
      panes.delete(op[1]);
      return;
  }
}

function answer(call: ScreenCall, pane: Pane): ScreenCallResult {
  const { emulator } = pane;
  switch (call[0]) {
    case 'snapshot':
      return snapshotWithin(call[3], {
        full: () => emulator.serialized(call[2]),
        viewport: () => emulator.serialized(0),
        plain: () => joinLines(emulator.lines(emulator.rows)),
      });
    case 'lines':
      return emulator.lines(call[2]);
    case 'rows':
      return emulator.renderedRows();
    case 'freeze': {
      const final = emulator.frozen();
      emulator.dispose();
      panes.delete(call[1]);
      return final;
    }
  }
}

function reply(message: ScreenCallReply): void {
  replies.postMessage(message);
  Atomics.store(signalCell, 0, 1);
  Atomics.notify(signalCell, 0);
}

function call(seq: number, screenCall: ScreenCall): void {
  const pane = panes.get(screenCall[1]);
  if (!pane) {
    reply({ seq, error: `no pane ${screenCall[1]} in this screen worker` });
    return;
  }
  pane.emulator.write('', () => {
    try {
      reply({ seq, result: answer(screenCall, pane) });
    } catch (error) {
      reply({ seq, error: error instanceof Error ? error.message : String(error) });
    }
  });
}

port.on('message', (message: ToScreenWorker) => {
  for (const op of message.ops ?? []) apply(op);
  if (message.call) call(message.call.seq, message.call.call);
});
emit(['ready']);
