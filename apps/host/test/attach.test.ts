import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import pty from 'node-pty';
import { describe, expect, it } from 'vitest';
import { connectRuntime, type RuntimeClient } from '../src/rpc/client.ts';
import { CLI_ENTRY, startOrca, TSX_CLI } from './cli-process.ts';

/** A real host on a fresh data dir and a runtime client, both stopped after `body`. */
async function withHost(
  prefix: string,
  body: (ctx: { dataDir: string; client: RuntimeClient }) => Promise<void>,
): Promise<void> {
  const dataDir = join(mkdtempSync(join(tmpdir(), prefix)), 'data');
  const host = await startOrca(dataDir);
  const client = await connectRuntime(dataDir);
  try {
    await body({ dataDir, client });
  } finally {
    client.close();
    await host.stop();
  }
}

/** The real `orca` CLI in a real PTY of `cols`×`rows`: everything it drew, input, resize, exit code. */
function orcaInPty(dataDir: string, args: readonly string[], size = { cols: 100, rows: 30 }) {
  const proc = pty.spawn(
    process.execPath,
    [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, '--data-dir', dataDir, ...args],
    {
      ...size,
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
    },
  );
  let screen = '';
  proc.onData((d) => {
    screen += d;
  });
  const exited = new Promise<number>((resolve) => proc.onExit((e) => resolve(e.exitCode)));
  return {
    screen: () => screen,
    write: (data: string) => proc.write(data),
    resize: (cols: number, rows: number) => proc.resize(cols, rows),
    exited,
    /** Waits for `text` on the terminal, naming what it saw when it is not there. */
    async shows(text: string, what: string): Promise<void> {
      await until(what, () => screen.includes(text)).catch((error) => {
        throw new Error(`${(error as Error).message}; the terminal showed ${JSON.stringify(screen.slice(-600))}`);
      });
    },
  };
}

/** Gives the CLI time to switch its terminal to raw mode after the snapshot is drawn. */
const rawModeSettles = () => new Promise((r) => setTimeout(r, 300));

describe('orca attach (the real CLI in a real PTY, over terminal.multiplex)', () => {
  it('shows the pane, forwards input, detaches on Ctrl-] with exit 0', async () => {
    await withHost('orca-attach-', async ({ dataDir, client }) => {
      const pane = await client.call('terminal.create', {
        argv: ['/bin/sh', '-c', 'echo attach-me; read x; echo "got:$x"; sleep 60'],
        cwd: '/',
      });
      const attach = orcaInPty(dataDir, ['attach', pane.handle]);
      await attach.shows('attach-me', 'the snapshot');
      attach.write('xyz\r');
      await attach.shows('got:xyz', 'the echoed input');
      attach.write('\x1d');
      expect(await attach.exited).toBe(0);
    });
  }, 120_000);

  it('the pane takes the attached terminal’s size, follows its resizes, and gets its own size back at detach', async () => {
    await withHost('orca-attach-size-', async ({ dataDir, client }) => {
      const pane = await client.call('terminal.create', { argv: ['/bin/sh', '-i'], cwd: '/' });
      const paneSize = async (marker: string): Promise<string> => {
        await client.call('terminal.send', { handle: pane.handle, text: `echo ${marker}=$(stty size)\n` });
        for (let i = 0; i < 200; i += 1) {
          const shown = await client.call('terminal.show', { handle: pane.handle });
          const found = shown.tail?.match(new RegExp(`${marker}=(\\d+ \\d+)`))?.[1];
          if (found !== undefined) return found;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`no stty size for ${marker}`);
      };
      const own = await paneSize('own');
      const attach = orcaInPty(dataDir, ['attach', pane.handle], { cols: 100, rows: 30 });
      await attach.shows(`own=${own}`, 'the snapshot');
      await rawModeSettles();
      attach.write('echo attached=$(stty size)\r');
      await attach.shows('attached=30 100', 'the attached size inside the pane');
      attach.resize(90, 25);
      await rawModeSettles();
      attach.write('echo resized=$(stty size)\r');
      await attach.shows('resized=25 90', 'the resized size inside the pane');
      attach.write('\x1d');
      expect(await attach.exited).toBe(0);
      expect(await paneSize('after')).toBe(own);
    });
  }, 120_000);

  it('strips OSC 52 (clipboard) from the pane unless --allow-clipboard is given', async () => {
    await withHost('orca-attach-clip-', async ({ dataDir, client }) => {
      const pane = await client.call('terminal.create', {
        argv: ['/bin/sh', '-c', "while :; do printf 'clip\\033]52;c;c2VjcmV0\\007board\\n'; sleep 0.1; done"],
        cwd: '/',
      });
      const boards = (text: string) => (text.match(/board/g) ?? []).length;
      const attachOnce = async (extra: string[]): Promise<string> => {
        const attach = orcaInPty(dataDir, ['attach', ...extra, pane.handle], { cols: 80, rows: 24 });
        await attach.shows('board', 'the snapshot');
        // Why: the snapshot already shows lines (a screen never holds OSC 52); wait for live output after it.
        const drawn = boards(attach.screen());
        await until('live output after the snapshot', () => boards(attach.screen()) >= drawn + 3);
        attach.write('\x1d');
        expect(await attach.exited).toBe(0);
        return attach.screen();
      };
      const plain = await attachOnce([]);
      expect(plain).toContain('clipboard');
      expect(plain).not.toContain('\x1b]52;');
      const granted = await attachOnce(['--allow-clipboard']);
      expect(granted).toContain('\x1b]52;c;c2VjcmV0\x07board');
    });
  }, 120_000);

  it('orca run --attach creates the pane and attaches at once; after Ctrl-] the pane keeps running', async () => {
    await withHost('orca-run-attach-', async ({ dataDir, client }) => {
      const run = orcaInPty(dataDir, [
        'run',
        '--attach',
        '--cwd',
        '/',
        '--',
        '/bin/sh',
        '-c',
        'echo run-attached; read x; echo "got:$x"; sleep 60',
      ]);
      await run.shows('run-attached', 'the pane on the attached terminal');
      expect(run.screen()).toMatch(/attached to pane-[0-9a-f]+/);
      await rawModeSettles();
      run.write('abc\r');
      await run.shows('got:abc', 'input reached the pane');
      run.write('\x1d');
      expect(await run.exited).toBe(0);
      const { panes } = await client.call('terminal.list');
      expect(panes).toHaveLength(1);
      expect(panes[0]?.exited ?? null).toBeNull();
    });
  }, 120_000);

  it('the pane exiting ends the attach with exit 0', async () => {
    await withHost('orca-attach-end-', async ({ dataDir, client }) => {
      const pane = await client.call('terminal.create', {
        argv: ['/bin/sh', '-c', 'echo short-lived; read x; echo "bye:$x"'],
        cwd: '/',
      });
      const attach = orcaInPty(dataDir, ['attach', pane.handle], { cols: 80, rows: 24 });
      await attach.shows('short-lived', 'the snapshot');
      await rawModeSettles();
      attach.write('now\r');
      expect(await attach.exited).toBe(0);
      expect(attach.screen()).toContain('bye:now');
    });
  }, 120_000);
});
