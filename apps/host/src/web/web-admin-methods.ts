import { defineMethod, type MethodDefinition } from '@orca/wire/rpc';
import { z } from 'zod';
import type { WebServer } from './web-server.ts';

/**
 * `web.sessions` and `web.revoke` on the runtime socket (`orca web sessions|revoke`): the owner of
 * the data directory manages the browser sessions. Not offered to browser connections.
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function webAdminMethods(web: () => WebServer | null): MethodDefinition<any>[] {
  return [
    defineMethod({
      name: 'web.sessions',
      params: null,
      handler: () => ({ serving: web() !== null, sessions: web()?.sessions() ?? [] }),
    }),
    defineMethod({
      name: 'web.revoke',
      params: z.object({ id: z.string().min(1).max(100) }),
      handler: (p) => ({ revoked: web()?.revoke(p.id) ?? false }),
    }),
  ];
}
