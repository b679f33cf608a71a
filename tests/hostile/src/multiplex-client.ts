import { connectRuntime, type RuntimeClient } from '@orca/host';
import { encodeFrame, encodeJsonPayload, Opcode } from '@orca/wire/terminal-stream';
import { until } from './real-host.ts';

/** A raw `terminal.multiplex` session on a real host: frames go out as built, events are recorded. */
export interface RawMultiplex {
  readonly client: RuntimeClient;
  /** Every event result of the streaming call, in order. */
  readonly events: Array<Record<string, unknown>>;
  /** Sends one JSON-payload frame exactly as given (no client-side checks). */
  frame(opcode: number, streamId: number, body: unknown): void;
  /** Subscribes `streamId` to `handle` and waits for `subscribed`. */
  subscribe(streamId: number, handle: string, extra?: Record<string, unknown>): Promise<void>;
  close(): void;
}

/** Opens `terminal.multiplex` on the host of `dataDir` and waits for its first `ready`. */
export async function openRawMultiplex(dataDir: string): Promise<RawMultiplex> {
  const client = await connectRuntime(dataDir);
  const events: Array<Record<string, unknown>> = [];
  void client
    .stream('terminal.multiplex', {}, (event) => {
      events.push(event as Record<string, unknown>);
    })
    .catch(() => undefined);
  await until('multiplex ready', () => (events.some((e) => e.type === 'ready') ? true : undefined));
  const frame = (opcode: number, streamId: number, body: unknown): void => {
    client.socket.send(encodeFrame({ opcode, streamId, seq: 0, payload: encodeJsonPayload(body) }), { binary: true });
  };
  return {
    client,
    events,
    frame,
    async subscribe(streamId, handle, extra = {}) {
      frame(Opcode.Subscribe, 0, { streamId, terminal: handle, ...extra });
      await until(`stream ${streamId} subscribed`, () =>
        events.some((e) => e.type === 'subscribed' && e.streamId === streamId) ? true : undefined,
      );
    },
    close: () => client.close(),
  };
}
