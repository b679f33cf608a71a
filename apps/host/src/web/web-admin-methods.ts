import { defineMethod, type MethodDefinition } from '@orca/wire/rpc';
import { z } from 'zod';
import { WEB_PAIRING_TTL_MAX_MS, WEB_PAIRING_TTL_MS } from '../constants.ts';
import { HostError } from '../errors.ts';
import type { WebServer } from './web-server.ts';

/**
 * `web.sessions`, `web.revoke` and `web.pair` on the runtime socket (`orca web …`): the owner of
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
    defineMethod({
      name: 'web.pair',
      params: z.object({ expiresInMs: z.number().int().min(1_000).max(WEB_PAIRING_TTL_MAX_MS).optional() }).nullish(),
      handler: (p) => {
        const server = web();
        if (!server)
          throw new HostError(
            'ORCA_HOST_WEB',
            'the host is not serving the web client; start it with `orca start --web`',
          );
        return server.pair(p?.expiresInMs ?? WEB_PAIRING_TTL_MS);
      },
    }),
  ];
}
