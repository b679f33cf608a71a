import type { KeeperClient, KeptExit } from '@orca/keeper';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../runtime/logger.ts';
import { keeperPanes } from './keeper-panes.ts';

/** A keeper link whose events the test sends; `spawn` answers when the test says. */
function fakeLink() {
  const data: ((id: string, chunk: string, to: number) => void)[] = [];
  const exits: ((id: string, exit: KeptExit) => void)[] = [];
  const closes: ((why: string) => void)[] = [];
  let answer: (pid: number) => void = () => undefined;
  const link = {
    welcome: { pid: 1, protocol: 1, version: 'test', panes: [], capabilities: [] },
    spawn: () =>
      new Promise<{ pid: number }>((resolve) => {
        answer = (pid) => resolve({ pid });
      }),
    onData: (l: (id: string, chunk: string, to: number) => void) => void data.push(l),
    onExit: (l: (id: string, exit: KeptExit) => void) => void exits.push(l),
    onClose: (l: (why: string) => void) => void closes.push(l),
    closed: false,
    write: () => undefined,
    resize: () => undefined,
    kill: () => undefined,
    flow: () => undefined,
  } as unknown as KeeperClient;
  return {
    link,
    output: (id: string, chunk: string, to: number) => {
      for (const l of data) l(id, chunk, to);
    },
    exit: (id: string, code: number) => {
      for (const l of exits) l(id, { code, signal: null, at: 0 });
    },
    close: (why: string) => {
      for (const l of closes) l(why);
    },
    answer: (pid: number) => answer(pid),
  };
}

const spec = { file: '/bin/echo', args: ['hi'], cwd: '/', env: {}, cols: 80, rows: 24 };

describe('keeperPanes', () => {
  it('holds output that came before the spawn answer until the pane listens and says ready', async () => {
    const fake = fakeLink();
    const { spawner } = keeperPanes(fake.link, { log: silentLogger(), detached: () => false });
    const spawning = spawner.spawn('pane-1', spec);
    // The program printed and ended before the keeper's answer was read.
    fake.output('pane-1', 'first ', 6);
    fake.output('pane-1', 'line\r\n', 12);
    fake.exit('pane-1', 0);
    fake.answer(4242);
    const proc = await spawning;
    // Output arriving after the answer but before the owner listens is held too.
    fake.output('pane-1', 'late', 16);
    const seen: string[] = [];
    const ended: (number | null)[] = [];
    proc.onData((chunk) => seen.push(chunk));
    proc.onExit((exit) => ended.push(exit.code));
    expect(seen).toEqual([]);
    proc.ready?.(0);
    expect(seen.join('')).toBe('first line\r\nlate');
    expect(ended).toEqual([0]);
    expect(proc.pid).toBe(4242);
  });

  it('ends every pane with cause keeper-died when the link drops, unless the host detached', async () => {
    for (const detached of [false, true]) {
      const fake = fakeLink();
      const { spawner } = keeperPanes(fake.link, { log: silentLogger(), detached: () => detached });
      const spawning = spawner.spawn('pane-2', spec);
      fake.answer(7);
      const proc = await spawning;
      const causes: (string | undefined)[] = [];
      proc.onExit((exit) => causes.push(exit.cause));
      proc.ready?.(0);
      fake.close('socket closed');
      expect(causes).toEqual(detached ? [] : ['keeper-died']);
    }
  });

  it('drops output of another pane id and output of a pane whose spawn failed', async () => {
    const fake = fakeLink();
    const { spawner } = keeperPanes(fake.link, { log: silentLogger(), detached: () => false });
    fake.output('pane-unknown', 'junk', 4);
    const spawning = spawner.spawn('pane-3', spec);
    fake.output('pane-other', 'not mine', 8);
    fake.answer(9);
    const proc = await spawning;
    const seen: string[] = [];
    proc.onData((chunk) => seen.push(chunk));
    proc.ready?.(0);
    expect(seen).toEqual([]);
  });
});
