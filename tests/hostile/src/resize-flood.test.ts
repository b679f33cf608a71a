import { join } from 'node:path';
import { Opcode, TERMINAL_LIMITS } from '@orca/wire/terminal-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawMultiplex, type RawMultiplex } from './multiplex-client.ts';
import { type HostileHost, runOrca, startHostileHost, tempRoot, until } from './real-host.ts';

let host: HostileHost;
let dataDir: string;
let mux: RawMultiplex;
let handle: string;

async function paneSize(marker: string): Promise<string> {
  await mux.client.call('terminal.send', { handle, text: `echo ${marker}=$(stty size)\n` });
  return until(`stty size ${marker}`, async () => {
    const shown = (await mux.client.call('terminal.show', { handle })) as { tail?: string };
    return shown.tail?.match(new RegExp(`${marker}=(\\d+ \\d+)`))?.[1];
  });
}

beforeAll(async () => {
  dataDir = join(tempRoot('orca-hostile-resize-'), 'data');
  host = await startHostileHost(dataDir);
  mux = await openRawMultiplex(dataDir);
  const created = (await mux.client.call('terminal.create', { argv: ['/bin/sh'], cwd: '/' })) as { handle: string };
  handle = created.handle;
  await mux.subscribe(1, handle);
}, 60_000);

afterAll(async () => {
  mux?.close();
  await host?.stop();
});

describe('a Resize frame beyond the terminal limits', () => {
  it('2000×2000 and 65535×65535 are refused with invalid_argument; the pane keeps its size', async () => {
    const sizeBefore = await paneSize('before');
    for (const [cols, rows] of [
      [2000, 2000],
      [65535, 65535],
    ]) {
      const seen = mux.events.length;
      mux.frame(Opcode.Resize, 1, { cols, rows });
      const refusal = await until(`refusal of ${cols}×${rows}`, () =>
        mux.events.slice(seen).find((e) => e.type === 'error' && e.streamId === 1),
      );
      expect(String(refusal.message)).toMatch(/^invalid_argument: viewport /);
    }
    expect(await paneSize('after')).toBe(sizeBefore);
  });

  it('the host stays alive with its pane, and the same connection still resizes within the limits', async () => {
    mux.frame(Opcode.Resize, 1, { cols: 100, rows: 30 });
    expect(await paneSize('resized')).toBe('30 100');
    mux.frame(Opcode.Resize, 1, { cols: TERMINAL_LIMITS.maxCols, rows: TERMINAL_LIMITS.maxRows });
    expect(await paneSize('largest')).toBe(`${TERMINAL_LIMITS.maxRows} ${TERMINAL_LIMITS.maxCols}`);
    expect(host.alive()).toBe(true);
    const ls = await runOrca(['--json', '--data-dir', dataDir, 'ls']);
    expect((JSON.parse(ls.stdout) as { panes: Array<{ handle: string }> }).panes.map((p) => p.handle)).toContain(
      handle,
    );
  });

  it('a Subscribe asking for a 5000×5000 viewport is refused and opens nothing', async () => {
    const seen = mux.events.length;
    mux.frame(Opcode.Subscribe, 0, { streamId: 2, terminal: handle, viewport: { cols: 5000, rows: 5000 } });
    const refusal = await until('subscribe refusal', () =>
      mux.events.slice(seen).find((e) => e.type === 'error' && e.streamId === 2),
    );
    expect(String(refusal.message)).toMatch(/^invalid_argument/);
    expect(mux.events.slice(seen).some((e) => e.type === 'subscribed')).toBe(false);
    expect(host.alive()).toBe(true);
  });
});
