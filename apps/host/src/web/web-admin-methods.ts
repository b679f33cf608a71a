import type { MethodDefinition } from '@orca/wire/rpc';
import { WEB_PAIRING_TTL_MS } from '../constants.ts';
import { HostError } from '../errors.ts';
import { runtimeMethod as m } from '../rpc/contract-method.ts';
import type { WebServer } from './web-server.ts';

/**
 * `web.sessions`, `web.revoke` and `web.pair` on the runtime socket (`orca web …`): the owner of
 * the data directory manages the browser sessions. Not offered to browser connections.
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function webAdminMethods(web: () => WebServer | null): MethodDefinition<any>[] {
  return [
    m('web.sessions', () => ({ serving: web() !== null, sessions: web()?.sessions() ?? [] })),
    m('web.revoke', (p) => ({ revoked: web()?.revoke(p.id) ?? false })),
    m('web.pair', (p) => {
      const server = web();
      if (!server)
        throw new HostError(
          'ORCA_HOST_WEB',
          'the host is not serving the web client; start it with `orca start --web`',
        );
      return server.pair(p?.expiresInMs ?? WEB_PAIRING_TTL_MS);
    }),
  ];
}
