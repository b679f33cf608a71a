import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRelayChannel } from '@orca/wire/relay-frames';
import { afterEach, describe, expect, it } from 'vitest';
import { connectKeeper } from '../src/index.ts';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A keeper stand-in that answers hello, then each `pty.attach` with the next of `pages`. */
async function pagedKeeper(pages: Record<string, unknown>[]): Promise<{ socket: string; asked: unknown[] }> {
  const socket = join(mkdtempSync(join(tmpdir(), 'orca-pages-')), 'k.sock');
  const asked: unknown[] = [];
  const server = createServer((s) => {
    const ch = createRelayChannel({ write: (b) => s.write(b), policy: 'close' });
    s.on('data', (d: Buffer) => ch.receive(new Uint8Array(d)));
    s.on('close', () => ch.dispose());
    ch.onRequest('keeper.hello', () => ({
      protocol: 1,
      version: 'stand-in',
      pid: process.pid,
      capabilities: ['pty.attach.pages.v1'],
      panes: [],
    }));
    ch.onRequest('pty.attach', (params) => {
      asked.push(params);
      return pages.shift();
    });
    ch.start();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return { socket, asked };
}

describe('paged attach (pty.attach.pages.v1)', () => {
  it('joins the pages of an unbroken slice', async () => {
    const k = await pagedKeeper([
      { from: 0, to: 3, data: 'abc', truncated: false, more: true, modes: [] },
      { from: 3, to: 5, data: 'de', truncated: false, modes: [2004] },
    ]);
    const client = await connectKeeper(k.socket, { pid: process.pid, version: 'test' });
    expect(await client.attach('p', 0)).toEqual({ from: 0, to: 5, data: 'abcde', truncated: false, modes: [2004] });
    expect(k.asked).toEqual([
      { id: 'p', from: 0, maxChars: 256 * 1024 },
      { id: 'p', from: 3, maxChars: 256 * 1024 },
    ]);
    client.close();
  });

  it('output dropped between two pages: the pages before the gap are let go and the slice says truncated', async () => {
    const k = await pagedKeeper([
      { from: 0, to: 3, data: 'abc', truncated: false, more: true, modes: [] },
      { from: 50, to: 53, data: 'xyz', truncated: true, more: true, modes: [] },
      { from: 53, to: 55, data: '!!', truncated: false, modes: [1049] },
    ]);
    const client = await connectKeeper(k.socket, { pid: process.pid, version: 'test' });
    expect(await client.attach('p', 0)).toEqual({ from: 50, to: 55, data: 'xyz!!', truncated: true, modes: [1049] });
    client.close();
  });
});
