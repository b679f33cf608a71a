import {
  MIN_COMPATIBLE_RUNTIME_CLIENT_VERSION,
  RUNTIME_PROTOCOL_VERSION,
  type StatusGetResult,
} from '@orca/wire/compat';
import { defineMethod, type MethodDefinition } from '@orca/wire/rpc';
import { z } from 'zod';
import { APP_VERSION, WAIT_TIMEOUT_MAX_MS } from '../constants.ts';
import type { Host } from '../host/host-types.ts';
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

const handle = z.string().min(1).max(200);

/**
 * The runtime RPC methods over the host. Handlers only translate to host calls; refusals keep
 * their wire codes (passed through by the dispatcher).
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function runtimeMethods(host: Host): MethodDefinition<any>[] {
  return [
    defineMethod({ name: 'status.get', params: null, handler: () => statusGetResult() }),
    defineMethod({
      name: 'terminal.create',
      params: z.object({
        argv: z.array(z.string()).min(1),
        cwd: z.string().min(1).optional(),
        name: z.string().max(200).optional(),
        env: z.record(z.string(), z.string()).optional(),
        guest: z.string().min(1).optional(),
      }),
      handler: (p) =>
        host.createPane({
          argv: p.argv,
          ...(p.guest ? { guest: p.guest } : {}),
          ...(p.cwd ? { cwd: p.cwd } : {}),
          ...(p.name ? { name: p.name } : {}),
          ...(p.env ? { env: p.env } : {}),
        }),
    }),
    defineMethod({ name: 'terminal.list', params: null, handler: () => ({ panes: host.listPanes() }) }),
    defineMethod({ name: 'terminal.show', params: z.object({ handle }), handler: (p) => host.showPane(p.handle) }),
    defineMethod({
      name: 'terminal.remove',
      params: z.object({ handle }),
      handler: (p) => {
        host.removePane(p.handle);
        return { removed: p.handle };
      },
    }),
    defineMethod({
      name: 'terminal.send',
      params: z.object({ handle, text: z.string() }),
      handler: (p) => ({ bytes: host.send(p.handle, p.text) }),
    }),
    defineMethod({
      name: 'terminal.dispatch',
      // Why: an empty or oversized prompt gets its own refusal code (prompt_empty, prompt_too_large), not a schema error.
      params: z.object({
        handle,
        inject: z.string(),
        timeoutMs: z.number().int().positive().max(WAIT_TIMEOUT_MAX_MS).optional(),
      }),
      handler: (p) =>
        host.dispatchInject(p.handle, p.inject, p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
    }),
    defineMethod({
      name: 'terminal.wait',
      params: z.object({
        handle,
        for: z.enum(['tui-idle', 'exit']),
        timeoutMs: z.number().int().positive().max(WAIT_TIMEOUT_MAX_MS).optional(),
      }),
      streaming: true,
      handler: (p) => host.wait(p.handle, p.for, p.timeoutMs),
    }),
    ...queueMethods(host),
    ...notifyMethods(host),
    ...resumeMethods(host),
    defineMethod({
      name: 'guest.add',
      params: z.object({
        kind: z.enum(['netns', 'ssh']),
        name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
        target: z.string().min(1).optional(),
        noHooks: z.boolean().optional(),
        agents: z.array(z.string()).optional(),
        sshArgs: z.array(z.string()).optional(),
      }),
      handler: (p) =>
        host.guests.add(p.kind, p.name, {
          ...(p.target ? { target: p.target } : {}),
          ...(p.noHooks ? { noHooks: true } : {}),
          ...(p.agents ? { agents: p.agents } : {}),
          ...(p.sshArgs ? { sshArgs: p.sshArgs } : {}),
        }),
    }),
    defineMethod({ name: 'guest.list', params: null, handler: () => ({ guests: host.guests.list() }) }),
    defineMethod({
      name: 'guest.remove',
      params: z.object({ name: z.string().min(1) }),
      handler: async (p) => ({ removed: await host.guests.remove(p.name) }),
    }),
    defineMethod({
      name: 'store.gc',
      params: z.object({ full: z.boolean().optional() }).optional(),
      handler: (p) => host.gc({ full: p?.full === true }),
    }),
    defineMethod({
      name: 'status.watch',
      params: null,
      streaming: true,
      handler: (_p, ctx) => streamUntilClosed(ctx, (emit) => host.onVerdict(emit)),
    }),
  ];
}
