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

  it('the pane takes the attached terminal’s size, follows its resizes, and gets its own size back at detach', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-attach-size-')), 'data');
    const host = await startOrca(dataDir);
    const client = await connectRuntime(dataDir);
    try {
      const pane = await client.call<PaneView>('terminal.create', { argv: ['/bin/sh', '-i'], cwd: '/' });
      const paneSize = async (marker: string): Promise<string> => {
        await client.call('terminal.send', { handle: pane.handle, text: `echo ${marker}=$(stty size)\n` });
        for (let i = 0; i < 200; i += 1) {
          const shown = await client.call<PaneView>('terminal.show', { handle: pane.handle });
          const found = shown.tail?.match(new RegExp(`${marker}=(\\d+ \\d+)`))?.[1];
          if (found !== undefined) return found;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`no stty size for ${marker}`);
      };
      const own = await paneSize('own');
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
      await until('the snapshot', () => screen.includes(`own=${own}`));
      await new Promise((r) => setTimeout(r, 300));
      attach.write('echo attached=$(stty size)\r');
      await until('the attached size inside the pane', () => screen.includes('attached=30 100')).catch((e) => {
        throw new Error(`${(e as Error).message}; attach screen: ${JSON.stringify(screen.slice(-600))}`);
      });
      attach.resize(90, 25);
      await new Promise((r) => setTimeout(r, 300));
      attach.write('echo resized=$(stty size)\r');
      await until('the resized size inside the pane', () => screen.includes('resized=25 90'));
      attach.write('\x1d');
      expect(await exited).toBe(0);
      expect(await paneSize('after')).toBe(own);
    } finally {
      client.close();
      await host.stop();
    }
  }, 120_000);

  it('strips OSC 52 (clipboard) from the pane unless --allow-clipboard is given', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-attach-clip-')), 'data');
    const host = await startOrca(dataDir);
    const client = await connectRuntime(dataDir);
    try {
      const pane = await client.call<PaneView>('terminal.create', {
        argv: ['/bin/sh', '-c', "while :; do printf 'clip\\033]52;c;c2VjcmV0\\007board\\n'; sleep 0.1; done"],
        cwd: '/',
      });
      const attachOnce = async (extra: string[]): Promise<string> => {
        const attach = pty.spawn(
          process.execPath,
          [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, '--data-dir', dataDir, 'attach', ...extra, pane.handle],
          {
            cols: 80,
            rows: 24,
            cwd: '/',
            env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
          },
        );
        let screen = '';
        attach.onData((d) => {
          screen += d;
        });
        const exited = new Promise<number>((resolve) => attach.onExit((e) => resolve(e.exitCode)));
        await until('live output', () => (screen.match(/board/g) ?? []).length >= 3);
        attach.write('\x1d');
        expect(await exited).toBe(0);
        return screen;
      };
      const plain = await attachOnce([]);
      expect(plain).toContain('clipboard');
      expect(plain).not.toContain('\x1b]52;');
      const granted = await attachOnce(['--allow-clipboard']);
      expect(granted).toContain('\x1b]52;c;c2VjcmV0\x07board');
    } finally {
      client.close();
      await host.stop();
    }
  }, 120_000);

  it('orca run --attach creates the pane and attaches at once; after Ctrl-] the pane keeps running', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-run-attach-')), 'data');
    const host = await startOrca(dataDir);
    const client = await connectRuntime(dataDir);
    try {
      const run = pty.spawn(
        process.execPath,
        [
          TSX_CLI,
          '--conditions=orca-source',
          CLI_ENTRY,
          '--data-dir',
          dataDir,
          'run',
          '--attach',
          '--cwd',
          '/',
          '--',
          '/bin/sh',
          '-c',
          'echo run-attached; read x; echo "got:$x"; sleep 60',
        ],
        {
          cols: 100,
          rows: 30,
          cwd: '/',
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
        },
      );
      let screen = '';
      run.onData((d) => {
        screen += d;
      });
      const exited = new Promise<number>((resolve) => run.onExit((e) => resolve(e.exitCode)));
      await until('the pane on the attached terminal', () => screen.includes('run-attached')).catch((e) => {
        throw new Error(`${(e as Error).message}: ${JSON.stringify(screen)}`);
      });
      expect(screen).toMatch(/attached to pane-[0-9a-f]+/);
      await new Promise((r) => setTimeout(r, 300));
      run.write('abc\r');
      await until('input reached the pane', () => screen.includes('got:abc'));
      run.write('\x1d');
      expect(await exited).toBe(0);
      const { panes } = await client.call<{ panes: PaneView[] }>('terminal.list');
      expect(panes).toHaveLength(1);
      expect(panes[0]?.exited ?? null).toBeNull();
    } finally {
      client.close();
      await host.stop();
    }
  }, 120_000);

  it('the pane exiting ends the attach with exit 0', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-attach-end-')), 'data');
    const host = await startOrca(dataDir);
    const client = await connectRuntime(dataDir);
    try {
      const pane = await client.call<PaneView>('terminal.create', {
        argv: ['/bin/sh', '-c', 'echo short-lived; read x; echo "bye:$x"'],
        cwd: '/',
      });
      const attach = pty.spawn(
        process.execPath,
        [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, '--data-dir', dataDir, 'attach', pane.handle],
        {
          cols: 80,
          rows: 24,
          cwd: '/',
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
        },
      );
      let screen = '';
      attach.onData((d) => {
        screen += d;
      });
      const exited = new Promise<number>((resolve) => attach.onExit((e) => resolve(e.exitCode)));
      await until('the snapshot', () => screen.includes('short-lived'));
      await new Promise((r) => setTimeout(r, 300));
      attach.write('now\r');
      expect(await exited).toBe(0);
      expect(screen).toContain('bye:now');
    } finally {
      client.close();
      await host.stop();
    }
  }, 120_000);
});
