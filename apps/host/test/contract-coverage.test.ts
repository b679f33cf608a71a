import { RUNTIME_CONTRACT } from '@orca/wire/contract';
import { describe, expect, it } from 'vitest';
import { shutdownMethod } from '../src/cli/start.ts';
import type { Host } from '../src/host/host-types.ts';
import { runtimeMethods } from '../src/rpc/methods.ts';
import { webAdminMethods } from '../src/web/web-admin-methods.ts';

// Why: the two methods bound to one connection are built per connection (the multiplex in
// createRuntimeHandlers, web.session in the web server); their tests call them for real.
const PER_CONNECTION = ['terminal.multiplex', 'web.session'];

describe('the host serves the runtime contract', () => {
  it('every method of the contract has a handler, and the host serves no method outside it', () => {
    // Why: building the method list only closes over the host; no handler runs here.
    const host = {} as Host;
    const served = [...runtimeMethods(host), ...webAdminMethods(() => null), shutdownMethod(() => undefined)].map(
      (m) => m.name,
    );
    expect(new Set(served).size).toBe(served.length);
    expect([...served, ...PER_CONNECTION].sort()).toEqual(Object.keys(RUNTIME_CONTRACT).sort());
  });

  it('each served method takes its params schema and streaming flag from the contract', () => {
    for (const m of runtimeMethods({} as Host)) {
      const spec = RUNTIME_CONTRACT[m.name as keyof typeof RUNTIME_CONTRACT];
      expect(m.params, m.name).toBe(spec.params);
      expect(m.streaming, m.name).toBe(spec.streaming);
    }
  });
});
