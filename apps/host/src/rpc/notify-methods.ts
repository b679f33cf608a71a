import { defineMethod, type MethodDefinition } from '@orca/wire/rpc';
import { z } from 'zod';
import { TRANSITIONS_KEPT_PER_PANE } from '../constants.ts';
import type { Host } from '../host/host-types.ts';
import { streamUntilClosed } from './stream-until-closed.ts';

/**
 * `status.explain` (capability `status.explain.v1`) and `notify.test`, `notify.log`,
 * `notify.watch` (capability `notify.v1`).
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function notifyMethods(host: Host): MethodDefinition<any>[] {
  return [
    defineMethod({
      name: 'status.explain',
      params: z.object({
        handle: z.string().min(1).max(200),
        limit: z.number().int().positive().max(TRANSITIONS_KEPT_PER_PANE).optional(),
        replay: z.boolean().optional(),
      }),
      handler: async (p) => {
        host.showPane(p.handle);
        return {
          handle: p.handle,
          transitions: await host.notify.explain(p.handle, { limit: p.limit ?? 10, replay: p.replay === true }),
        };
      },
    }),
    defineMethod({
      name: 'notify.test',
      params: z.object({ sink: z.string().min(1).max(40).optional() }).nullish(),
      handler: async (p) => ({ results: await host.notify.test(p?.sink ?? undefined) }),
    }),
    defineMethod({
      name: 'notify.log',
      params: z.object({ limit: z.number().int().positive().max(5_000).optional() }).nullish(),
      handler: (p) => ({ attempts: host.notify.log(p?.limit ?? 50) }),
    }),
    defineMethod({
      name: 'notify.watch',
      params: null,
      streaming: true,
      handler: (_p, ctx) => streamUntilClosed(ctx, (emit) => host.notify.onBoardEvent(emit)),
    }),
  ];
}
