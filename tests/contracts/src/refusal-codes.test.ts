import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectRuntime,
  createHost,
  type Host,
  HostError,
  HostRefusal,
  REFUSAL_CODES,
  type RefusalCode,
  type RuntimeClient,
  startRuntimeServer,
} from '@orca/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every host refusal code crosses the host's own runtime server (its dispatcher wiring, the real
 * `runtime.sock` WebSocket and the real client) unchanged. The only stand-in is `terminal.show`,
 * which throws the refusal named by its handle; every other part is the real host's.
 */
const root = mkdtempSync(join(tmpdir(), 'orca-contract-refusals-'));
const dataDir = join(root, 'data');
let host: Host;
let server: Awaited<ReturnType<typeof startRuntimeServer>>;
let client: RuntimeClient;

const isRefusalCode = (v: string): v is RefusalCode => (REFUSAL_CODES as readonly string[]).includes(v);

beforeAll(async () => {
  host = await createHost({ dataDir, home: root });
  const refusing: Host = {
    ...host,
    showPane(handle) {
      if (isRefusalCode(handle)) throw new HostRefusal(handle, `refused: ${handle}`);
      if (handle === 'fail-store') throw new HostError('ORCA_HOST_STORE', 'disk full');
      return host.showPane(handle);
    },
  };
  server = await startRuntimeServer(refusing, { runtimeId: 'contract-refusals' });
  client = await connectRuntime(dataDir);
}, 60_000);
afterAll(async () => {
  client?.close();
  await server?.close();
  await host?.stop();
});

describe("every host refusal code passes through the host's runtime server unchanged", () => {
  it.each([...REFUSAL_CODES])('%s', async (code) => {
    await expect(client.call('terminal.show', { handle: code })).rejects.toMatchObject({
      rpcCode: code,
      message: `refused: ${code}`,
    });
  });

  it('a real refusal of the real host (an unknown handle) keeps its code', async () => {
    await expect(client.call('terminal.show', { handle: 'pane-none' })).rejects.toMatchObject({
      rpcCode: 'terminal_handle_stale',
    });
  });

  it('a host failure that is not a refusal does not leak its code', async () => {
    const error = await client.call('terminal.show', { handle: 'fail-store' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ rpcCode: 'runtime_error', message: 'disk full' });
    expect(JSON.stringify(error)).not.toContain('ORCA_HOST_STORE');
  });
});
