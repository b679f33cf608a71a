import { join } from 'node:path';
import { connectRuntime, type RuntimeClient } from '@orca/host';
import { createTerminalClient } from '@orca/wire/terminal-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileHost, startHostileHost, tempRoot, until } from './real-host.ts';

let host: HostileHost;
let dataDir: string;
const clients: RuntimeClient[] = [];

beforeAll(async () => {
  dataDir = join(tempRoot('orca-hostile-osc52-'), 'data');
  host = await startHostileHost(dataDir);
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await host?.stop();
});

/** Attaches like `orca attach` does and returns everything the pane sent this client (snapshot + output). */
async function attachAndRead(handle: string, params: Record<string, unknown>, marker: string): Promise<string> {
  const client = await connectRuntime(dataDir);
  clients.push(client);
  let seen = '';
  const terminal = createTerminalClient({
    type: 'desktop',
    send: (bytes) => {
      client.socket.send(bytes, { binary: true });
      return true;
    },
    call: (method, p) => client.send(method, { ...p, ...params }, (event) => terminal.handleEvent(event)),
  });
  client.socket.on('message', (data, isBinary) => {
    if (isBinary) terminal.receive(new Uint8Array(data as Buffer));
  });
  terminal.subscribe({
    terminal: handle,
    sink: {
      onOutput: (text) => {
        seen += text;
      },
    },
  });
  for (let i = 0; i < 300 && !seen.includes(marker); i += 1) await new Promise((r) => setTimeout(r, 50));
  return seen;
}

describe('attack: a pane writes the attached user’s clipboard with OSC 52', () => {
  // Why: the pane repeats its frame so a client attaching at any moment receives it live.
  const frame = 'before\\033]52;c;c2VjcmV0\\007after-%s\\n';
  let handle: string;

  beforeAll(async () => {
    const client = await connectRuntime(dataDir);
    clients.push(client);
    const created = (await client.call('terminal.create', {
      argv: ['/bin/sh', '-c', `i=0; while [ $i -lt 600 ]; do printf '${frame}' $i; i=$((i+1)); sleep 0.1; done`],
      cwd: '/',
    })) as { handle: string };
    handle = created.handle;
    await until('pane output', async () => {
      const shown = (await client.call('terminal.show', { handle })) as { tail?: string };
      return shown.tail?.includes('after-') ? true : undefined;
    });
  });

  it('an attached client without the grant gets the text around it and never the OSC 52 sequence', async () => {
    const seen = await attachAndRead(handle, {}, 'after-');
    expect(seen).toContain('before');
    expect(seen).toMatch(/after-\d+/);
    expect(seen).not.toContain('\x1b]52;');
    expect(seen).not.toContain('c2VjcmV0');
  });

  it('a client granted the clipboard ({clipboard: true}) receives it unchanged', async () => {
    const seen = await attachAndRead(handle, { clipboard: true }, '\x1b]52;c;c2VjcmV0\x07after-');
    expect(seen).toContain('before\x1b]52;c;c2VjcmV0\x07after-');
  });
});
