import type { MethodDefinition } from '@orca/wire/rpc';
import { QUEUE_WAIT_DEFAULT_TIMEOUT_MS } from '../constants.ts';
import type { Host } from '../host/host-types.ts';
import { runtimeMethod as m } from './contract-method.ts';
import { streamUntilClosed } from './stream-until-closed.ts';

/** The `queue.*` RPC methods over the host's prompt queues (capability `prompt.queue.v1`). */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function queueMethods(host: Host): MethodDefinition<any>[] {
  return [
    m('queue.add', (p) =>
      host.queue.add(p.handle, p.prompt, {
        source: p.source ?? 'rpc',
        ...(p.expiresInMs !== undefined ? { expiresInMs: p.expiresInMs } : {}),
      }),
    ),
    m('queue.list', (p) => ({ items: host.queue.list(p?.handle) })),
    m('queue.get', (p) => host.queue.get(p.id)),
    m('queue.remove', (p) => host.queue.remove(p.id)),
    m('queue.move', (p) => ({ items: host.queue.move(p.id, p.position) })),
    m('queue.wait', (p, ctx) => host.queue.wait(p.id, p.timeoutMs ?? QUEUE_WAIT_DEFAULT_TIMEOUT_MS, ctx.signal)),
    m('queue.watch', (_p, ctx) => streamUntilClosed(ctx, (emit) => host.queue.onChange(emit))),
  ];
}
