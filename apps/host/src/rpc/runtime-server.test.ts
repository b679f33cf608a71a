import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { checkCompat, RUNTIME_PROTOCOL_VERSION, StatusGetResultSchema } from '@orca/wire/compat';
import { createTerminalClient } from '@orca/wire/terminal-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host/host.ts';
import { silentLogger } from '../runtime/logger.ts';
import { connectRuntime, type RuntimeClient } from './client.ts';
import { startRuntimeServer } from './runtime-server.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function setup(): Promise<{ host: Host; client: RuntimeClient }> {
  const root = mkdtempSync(join(tmpdir(), 'orca-rpc-'));
  const host = await createHost({ dataDir: join(root, 'data'), logger: silentLogger(), home: root });
  const server = await startRuntimeServer(host);
  cleanup.push(() => server.close().finally(() => host.stop()));
  const client = await connectRuntime(join(root, 'data'));
  cleanup.push(() => client.close());
  return { host, client };
}

describe('runtime RPC over runtime.sock', () => {
  it('status.get satisfies the wire schema; current and oldest-compatible clients are ok, older ones are told so', async () => {
    const { client } = await setup();
    const status = await client.call('status.get');
    expect(StatusGetResultSchema.safeParse(status).success).toBe(true);
    expect(status.runtimeProtocolVersion).toBe(RUNTIME_PROTOCOL_VERSION);
    const asClient = (v: number) =>
      checkCompat({ runtimeProtocolVersion: v, minCompatibleRuntimeServerVersion: v, appVersion: '0.0.0' }, status)
        .verdict;
    expect(asClient(status.minCompatibleRuntimeClientVersion)).toBe('ok');
    expect(asClient(status.minCompatibleRuntimeClientVersion - 1)).toBe('client-too-old');
    expect(asClient(RUNTIME_PROTOCOL_VERSION + 1)).toBe('server-too-old');
  });

  it('refusals keep their wire code; unknown methods are method_not_found', async () => {
    const { client } = await setup();
    await expect(client.call('terminal.show', { handle: 'pane-x' })).rejects.toMatchObject({
      rpcCode: 'terminal_handle_stale',
    });
    await expect(client.send('no.such')).rejects.toMatchObject({ rpcCode: 'method_not_found' });
    await expect(client.send('terminal.send', { handle: 1 })).rejects.toMatchObject({ rpcCode: 'invalid_argument' });
  });

  it('terminal.remove forgets an exited pane and its rows; a running pane or an unknown handle is refused', async () => {
    const { host, client } = await setup();
    const running = await host.createPane({ argv: ['/bin/sleep', '30'], cwd: '/' });
    const done = await host.createPane({ argv: ['/bin/true'], cwd: '/' });
    await host.wait(done.handle, 'exit', 10_000);
    await expect(client.call('terminal.remove', { handle: running.handle })).rejects.toMatchObject({
      rpcCode: 'invalid_argument',
      message: `pane ${running.handle} is still running; only an exited pane can be removed`,
    });
    expect(await client.call('terminal.remove', { handle: done.handle })).toEqual({ removed: done.handle });
    expect(host.listPanes().map((p) => p.handle)).toEqual([running.handle]);
    expect(host.store.verdicts(done.handle)).toEqual([]);
    await expect(client.call('terminal.remove', { handle: done.handle })).rejects.toMatchObject({
      rpcCode: 'terminal_handle_stale',
    });
  });

  it('terminal.multiplex: snapshot, input to the real PTY, output rendered by the wire client', async () => {
    const { host, client } = await setup();
    const pane = await host.createPane({
      argv: ['/bin/sh', '-c', 'echo hello-from-pane; read x; echo "got:$x"; sleep 30'],
      cwd: '/',
    });
    await until('pane output', () => host.showPane(pane.handle).tail?.includes('hello-from-pane') === true);
    const terminal = createTerminalClient({
      type: 'desktop',
      send: (bytes) => {
        client.socket.send(bytes, { binary: true });
        return true;
      },
      call: (method, params) => client.send(method, params, (event) => terminal.handleEvent(event)),
    });
    client.socket.on('message', (data, isBinary) => {
      if (isBinary) terminal.receive(new Uint8Array(data as Buffer));
    });
    let snapshot = '';
    let output = '';
    let subscribed = false;
    const streamId = terminal.subscribe({
      terminal: pane.handle,
      sink: {
        onSubscribed: () => {
          subscribed = true;
        },
        onSnapshot: (s) => {
          snapshot += s.data;
        },
        onOutput: (text) => {
          output += text;
        },
      },
    });
    await until('subscribed', () => subscribed);
    expect(snapshot).toContain('hello-from-pane');
    expect(terminal.input(streamId, 'abc\r')).toBe(true);
    await until('echoed input', () => output.includes('got:abc'));
    expect(terminal.stats().errors).toEqual([]);
  });
});
