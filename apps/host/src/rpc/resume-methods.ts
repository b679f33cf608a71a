import type { MethodDefinition } from '@orca/wire/rpc';
import type { Host } from '../host/host-types.ts';
import { listResumable, resumePanes } from '../resume/resume-panes.ts';
import { runtimeMethod as m } from './contract-method.ts';

/** `resume.list` and `resume.run` (capability `pane.resume.v1`): sessions that ended with their keeper or host. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function resumeMethods(host: Host): MethodDefinition<any>[] {
  return [
    m('resume.list', () => ({ panes: listResumable(host.store) })),
    m('resume.run', (p) => resumePanes(host, p?.handles)),
  ];
}
