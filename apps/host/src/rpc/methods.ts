import {
  MIN_COMPATIBLE_RUNTIME_CLIENT_VERSION,
  RUNTIME_PROTOCOL_VERSION,
  type StatusGetResult,
} from '@orca/wire/compat';
import type { MethodDefinition } from '@orca/wire/rpc';
import { APP_VERSION } from '../constants.ts';
import type { Host } from '../host/host-types.ts';
import { runtimeMethod as m } from './contract-method.ts';
import { notifyMethods } from './notify-methods.ts';
import { queueMethods } from './queue-methods.ts';
import { resumeMethods } from './resume-methods.ts';
import { streamUntilClosed } from './stream-until-closed.ts';

/** Capabilities this host reports in `status.get` (`area.feature.vN`). */
export const HOST_CAPABILITIES = [
  'terminal.create.v1',
  'terminal.show.v1',
  'terminal.remove.v1',
  'terminal.send.v1',
  'terminal.dispatch.v1',
  'terminal.wait.v1',
  'terminal.multiplex.v1',
  'agent.status.v1',
  'status.watch.v1',
  'guest.manage.v1',
  'store.gc.v1',
  'prompt.queue.v1',
  'terminal.input-lock.v1',
  'pane.resume.v1',
  'status.explain.v1',
  'notify.v1',
] as const;

/** The `status.get` result of this host. */
export function statusGetResult(): StatusGetResult {
  return {
    runtimeProtocolVersion: RUNTIME_PROTOCOL_VERSION,
    minCompatibleRuntimeClientVersion: MIN_COMPATIBLE_RUNTIME_CLIENT_VERSION,
    appVersion: APP_VERSION,
    capabilities: [...HOST_CAPABILITIES],
  };
}

/**
 * The runtime RPC methods over the host, served from `@orca/wire/contract` (params schemas and
 * result types there). Handlers only translate to host calls; refusals keep their wire codes
 * (passed through by the dispatcher).
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function runtimeMethods(host: Host): MethodDefinition<any>[] {
  return [
    m('status.get', () => statusGetResult()),
    m('terminal.create', (p) =>
      host.createPane({
        argv: p.argv,
        ...(p.guest ? { guest: p.guest } : {}),
        ...(p.cwd ? { cwd: p.cwd } : {}),
        ...(p.name ? { name: p.name } : {}),
        ...(p.env ? { env: p.env } : {}),
      }),
    ),
    m('terminal.list', () => ({ panes: host.listPanes() })),
    m('terminal.show', (p) => host.showPane(p.handle)),
    m('terminal.remove', (p) => {
      host.removePane(p.handle);
      return { removed: p.handle };
    }),
    m('terminal.send', (p) => ({ bytes: host.send(p.handle, p.text) })),
    m('terminal.dispatch', (p) =>
      host.dispatchInject(p.handle, p.inject, p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
    ),
    m('terminal.wait', (p) => host.wait(p.handle, p.for, p.timeoutMs)),
    ...queueMethods(host),
    ...notifyMethods(host),
    ...resumeMethods(host),
    m('guest.add', (p) =>
      host.guests.add(p.kind, p.name, {
        ...(p.target ? { target: p.target } : {}),
        ...(p.noHooks ? { noHooks: true } : {}),
        ...(p.agents ? { agents: p.agents } : {}),
        ...(p.sshArgs ? { sshArgs: p.sshArgs } : {}),
      }),
    ),
    m('guest.list', () => ({ guests: host.guests.list() })),
    m('guest.remove', async (p) => ({ removed: await host.guests.remove(p.name) })),
    m('store.gc', (p) => host.gc({ full: p?.full === true })),
    m('status.watch', (_p, ctx) => streamUntilClosed(ctx, (emit) => host.onVerdict(emit))),
  ];
}
