import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from 'node-pty';
import { describe, expect, it } from 'vitest';
import type { PaneView } from '../src/host/pane-view.ts';
import { connectRuntime } from '../src/rpc/client.ts';
import { CLI_ENTRY, startOrca, TSX_CLI } from './cli-process.ts';

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !check(); i += 1) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('orca attach (the real CLI in a real PTY, over terminal.multiplex)', () => {
  it('shows the pane, forwards input, detaches on Ctrl-] with exit 0', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-attach-')), 'data');
    const host = await startOrca(dataDir);
    const client = await connectRuntime(dataDir);
    try {
      const pane = await client.call<PaneView>('terminal.create', {
        argv: ['/bin/sh', '-c', 'echo attach-me; read x; echo "got:$x"; sleep 60'],
        cwd: '/',
      });
      const attach = pty.spawn(
        process.execPath,
        [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, '--data-dir', dataDir, 'attach', pane.handle],
        {
          cols: 100,
          rows: 30,
          cwd: '/',
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
        },
      );
      let screen = '';
      attach.onData((d) => {
        screen += d;
      });
      const exited = new Promise<number>((resolve) => attach.onExit((e) => resolve(e.exitCode)));
      await until('the snapshot', () => screen.includes('attach-me'));
      attach.write('xyz\r');
      await until('the echoed input', () => screen.includes('got:xyz'));
      attach.write('\x1d');
      expect(await exited).toBe(0);
    } finally {
      client.close();
      await host.stop();
    }
  }, 120_000);
});
