import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawMultiplex } from './multiplex-client.ts';
import { type HostileHost, startHostileHost, tempRoot } from './real-host.ts';

let host: HostileHost;
let dataDir: string;

beforeAll(async () => {
  dataDir = join(tempRoot('orca-hostile-ready-'), 'data');
  host = await startHostileHost(dataDir);
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

describe('terminal.multiplex handshake', () => {
  it('emits {"type":"ready"} exactly once per call', async () => {
    const mux = await openRawMultiplex(dataDir);
    const created = (await mux.client.call('terminal.create', { argv: ['/bin/sh'], cwd: '/' })) as { handle: string };
    // Why: a round trip after the handshake means any second ready would have arrived by now.
    await mux.subscribe(1, created.handle);
    expect(mux.events.filter((e) => e.type === 'ready')).toHaveLength(1);
    mux.close();
  });
});
