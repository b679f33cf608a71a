import type { ServerResponse } from 'node:http';

/** A server-sent-events writer that stops quietly once the client went away. */
export interface SseStream {
  /** Writes one event (`event:` line only when `event` is given) with a JSON `data:` line. */
  send(data: unknown, event?: string): void;
  /** Waits `ms` unless the client disconnects first; resolves false if it did. */
  pause(ms: number): Promise<boolean>;
  readonly closed: boolean;
  end(): void;
}

/** Starts an SSE response (`text/event-stream`, no buffering). */
export function openSse(res: ServerResponse): SseStream {
  let closed = false;
  const wakers = new Set<() => void>();
  res.on('close', () => {
    closed = true;
    for (const wake of wakers) wake();
  });
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  return {
    send(data, event) {
      if (closed) return;
      const head = event === undefined ? '' : `event: ${event}\n`;
      res.write(`${head}data: ${JSON.stringify(data)}\n\n`);
    },
    pause(ms) {
      if (closed) return Promise.resolve(false);
      return new Promise((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          wakers.delete(wake);
          resolve(!closed);
        };
        const timer = setTimeout(wake, ms);
        wakers.add(wake);
      });
    },
    get closed() {
      return closed;
    },
    end() {
      if (!closed) res.end();
    },
  };
}
