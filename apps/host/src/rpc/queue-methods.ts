import { defineMethod, type MethodDefinition } from '@orca/wire/rpc';
import { z } from 'zod';
import { QUEUE_WAIT_DEFAULT_TIMEOUT_MS, WAIT_TIMEOUT_MAX_MS } from '../constants.ts';
import type { Host } from '../host/host-types.ts';
import { streamUntilClosed } from './stream-until-closed.ts';

const handle = z.string().min(1).max(200);
const id = z.number().int().positive();

/** The `queue.*` RPC methods over the host's prompt queues (capability `prompt.queue.v1`). */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function queueMethods(host: Host): MethodDefinition<any>[] {
  return [
    defineMethod({
      name: 'queue.add',
      params: z.object({
        handle,
        prompt: z.string(),
        expiresInMs: z.number().int().positive().optional(),
        source: z.enum(['cli', 'web', 'rpc']).optional(),
      }),
      handler: (p) =>
        host.queue.add(p.handle, p.prompt, {
          source: p.source ?? 'rpc',
          ...(p.expiresInMs !== undefined ? { expiresInMs: p.expiresInMs } : {}),
        }),
    }),
    defineMethod({
      name: 'queue.list',
      params: z.object({ handle: handle.optional() }).optional(),
      handler: (p) => ({ items: host.queue.list(p?.handle) }),
    }),
    defineMethod({ name: 'queue.get', params: z.object({ id }), handler: (p) => host.queue.get(p.id) }),
    defineMethod({ name: 'queue.remove', params: z.object({ id }), handler: (p) => host.queue.remove(p.id) }),
    defineMethod({
      name: 'queue.move',
      params: z.object({ id, position: z.number().int().positive() }),
      handler: (p) => ({ items: host.queue.move(p.id, p.position) }),
    }),
    defineMethod({
      name: 'queue.wait',
      params: z.object({ id, timeoutMs: z.number().int().positive().max(WAIT_TIMEOUT_MAX_MS).optional() }),
      streaming: true,
      handler: (p, ctx) => host.queue.wait(p.id, p.timeoutMs ?? QUEUE_WAIT_DEFAULT_TIMEOUT_MS, ctx.signal),
    }),
    defineMethod({
      name: 'queue.watch',
      params: null,
      streaming: true,
      handler: (_p, ctx) => streamUntilClosed(ctx, (emit) => host.queue.onChange(emit)),
    }),
  ];
}
