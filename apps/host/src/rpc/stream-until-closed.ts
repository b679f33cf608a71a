import type { TypedMethodContext } from '@orca/wire/contract';

/**
 * The body of a watch method: `subscribe` forwards events through `ctx.emit` until the client
 * ends the call (or the connection closes); then its unsubscribe runs and the call answers null.
 *
 * @example
 * handler: (_p, ctx) => streamUntilClosed(ctx, (emit) => host.onVerdict(emit)),
 */
export function streamUntilClosed<E>(
  ctx: TypedMethodContext<E>,
  subscribe: (emit: (event: E) => void) => () => void,
): Promise<null> {
  return new Promise((resolve) => {
    const off = subscribe((event) => ctx.emit(event));
    ctx.signal.addEventListener(
      'abort',
      () => {
        off();
        resolve(null);
      },
      { once: true },
    );
  });
}
