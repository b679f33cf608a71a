import type { MessagePort } from 'node:worker_threads';
import type { FrozenScreen, ScreenModes, ScreenSnapshot } from './screen-emulator.ts';

/**
 * What the host thread sends a screen worker, in order, batched once per event-loop turn. Pane
 * ids are the pool's; a pane's writes are counted on both sides (the n-th write is seq n).
 */
export type ScreenOp =
  | readonly ['open', id: number, cols: number, rows: number, scrollback: number]
  | readonly ['write', id: number, data: string, at: number]
  /** Applied in order with the writes (after every earlier write is parsed); counted like a write. */
  | readonly ['resize', id: number, cols: number, rows: number]
  /** Answer with a `state` event once every write before this op is parsed. */
  | readonly ['sync', id: number]
  | readonly ['close', id: number];

/** A blocking call: answered on the call port once every earlier write of the pane is parsed. */
export type ScreenCall =
  | readonly ['snapshot', id: number, scrollbackRows: number, maxBytes: number]
  | readonly ['lines', id: number, maxRows: number]
  | readonly ['rows', id: number]
  | readonly ['freeze', id: number];

/** What a call answers (by its kind). */
export type ScreenCallResult = ScreenSnapshot | string[] | FrozenScreen;

/** What a screen worker sends back, in order, batched once per turn of its own loop. */
export type ScreenEvent =
  /** The worker loaded and listens (its first event). */
  | readonly ['ready']
  | readonly ['title', id: number, text: string, at: number]
  /** `parsed`: inputs (writes and resizes) parsed; `rows` and `modes` are null when nothing changed since the last state. */
  | readonly ['state', id: number, parsed: number, rows: string[] | null, modes: ScreenModes | null];

/** A message to a worker. */
export interface ToScreenWorker {
  readonly ops?: readonly ScreenOp[];
  readonly call?: { readonly seq: number; readonly call: ScreenCall };
}

/** A message from a worker on its event port. */
export interface FromScreenWorker {
  readonly events: readonly ScreenEvent[];
}

/** The answer to a call, on the call port. */
export interface ScreenCallReply {
  readonly seq: number;
  readonly result?: ScreenCallResult;
  readonly error?: string;
}

/** `workerData` of a screen worker: where blocking calls are answered and signalled. */
export interface ScreenWorkerData {
  readonly replies: MessagePort;
  /** One Int32: the worker stores 1 and notifies once a reply is on `replies`. */
  readonly signal: SharedArrayBuffer;
}
