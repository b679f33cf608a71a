import type { MethodDefinition } from '@orca/wire/rpc';
import type { Host } from '../host/host-types.ts';
import { runtimeMethod as m } from './contract-method.ts';
import { streamUntilClosed } from './stream-until-closed.ts';

/**
 * `status.explain` (capability `status.explain.v1`) and `notify.test`, `notify.log`,
 * `notify.watch` (capability `notify.v1`).
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function notifyMethods(host: Host): MethodDefinition<any>[] {
  return [
    m('status.explain', async (p) => {
      host.showPane(p.handle);
      return {
        handle: p.handle,
        transitions: await host.notify.explain(p.handle, { limit: p.limit ?? 10, replay: p.replay === true }),
      };
    }),
    m('notify.test', async (p) => ({ results: await host.notify.test(p?.sink ?? undefined) })),
    m('notify.log', (p) => ({ attempts: host.notify.log(p?.limit ?? 50) })),
    m('notify.watch', (_p, ctx) => streamUntilClosed(ctx, (emit) => host.notify.onBoardEvent(emit))),
  ];
}
