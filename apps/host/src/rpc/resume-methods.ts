import { defineMethod, type MethodDefinition } from '@orca/wire/rpc';
import { z } from 'zod';
import type { Host } from '../host/host-types.ts';
import { listResumable, resumePanes } from '../resume/resume-panes.ts';

/** `resume.list` and `resume.run` (capability `pane.resume.v1`): sessions that ended with their keeper or host. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function resumeMethods(host: Host): MethodDefinition<any>[] {
  return [
    defineMethod({ name: 'resume.list', params: null, handler: () => ({ panes: listResumable(host.store) }) }),
    defineMethod({
      name: 'resume.run',
      params: z.object({ handles: z.array(z.string().min(1).max(200)).max(1000).optional() }).optional(),
      handler: (p) => resumePanes(host, p?.handles),
    }),
  ];
}
