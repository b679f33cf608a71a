import { Worker } from 'node:worker_threads';
import { until } from '@orca/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCREEN_BACKLOG_HIGH_CHARS, SCREEN_WORKER_RESTARTS_MAX } from '../constants.ts';
import { createPaneScreen, type PaneScreen } from './screen.ts';
import { createScreenPool, defaultScreenWorkers, type ScreenPool } from './screen-pool.ts';

const pools: ScreenPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(workers: number, errors: [unknown, boolean][] = []): ScreenPool {
  const p = createScreenPool({ workers, onWorkerError: (error, retired) => errors.push([error, retired]) });
  pools.push(p);
  return p;
}

async function shows(screen: PaneScreen, text: string): Promise<readonly string[]> {
  return until(`the screen to show ${text}`, async () => {
    await screen.settled();
    const rows = screen.renderedRows();
    return rows.some((r) => r.includes(text)) ? rows : undefined;
  });
}

describe('createScreenPool', () => {
  it('defaults to one worker per core beyond the host thread, between 1 and 4', () => {
    expect([1, 2, 3, 8, 64].map((cores) => defaultScreenWorkers(cores))).toEqual([1, 1, 2, 4, 4]);
  });

  it('places panes on the least loaded worker and keeps each pane its own screen', async () => {
    const p = pool(2);
    await p.ready();
    const screens = Array.from({ length: 5 }, () => createPaneScreen({ cols: 30, rows: 3, engine: p.engine }));
    expect(p.load()).toEqual([3, 2]);
    for (const [i, s] of screens.entries()) s.write(`pane ${i}\r\n`);
    for (const [i, s] of screens.entries()) {
      await s.settled();
      expect(s.renderedRows()).toEqual([`pane ${i}`, '', '']);
    }
    screens[0]?.freeze();
    expect(p.load()).toEqual([2, 2]);
  });

  it("reports each worker's backlog: unparsed chars and the age of the oldest unparsed write", async () => {
    const p = pool(2);
    await p.ready();
    let clock = 1_000;
    const now = () => clock;
    const a = createPaneScreen({ cols: 20, rows: 2, engine: p.engine, now });
    const b = createPaneScreen({ cols: 20, rows: 2, engine: p.engine, now });
    expect(p.backlog(clock)).toEqual([
      { chars: 0, behindMs: 0 },
      { chars: 0, behindMs: 0 },
    ]);
    a.write('abc');
    clock = 1_040;
    a.write('de');
    b.write('fghij');
    expect(p.backlog(1_100)).toEqual([
      { chars: 5, behindMs: 100 },
      { chars: 5, behindMs: 60 },
    ]);
    expect(a.caughtUp()).toBe(false);
    await Promise.all([a.settled(), b.settled()]);
    expect([a.caughtUp(), b.caughtUp()]).toEqual([true, true]);
    expect(p.backlog(1_200)).toEqual([
      { chars: 0, behindMs: 0 },
      { chars: 0, behindMs: 0 },
    ]);
  });

  it('currentRows() holds every write so far at once; renderedRows() is the mirror of the last settle', async () => {
    const p = pool(1);
    const screen = createPaneScreen({ cols: 20, rows: 2, engine: p.engine });
    screen.write('one');
    await screen.settled();
    screen.write('\r\ntwo');
    expect(screen.renderedRows()).toEqual(['one', '']);
    expect(screen.currentRows()).toEqual(['one', 'two']);
    await screen.settled();
    expect(screen.renderedRows()).toEqual(['one', 'two']);
  });

  it('flow control: past the high mark of unparsed output it asks to pause the PTY, and to resume once parsed', async () => {
    const p = pool(1);
    await p.ready();
    const screen = createPaneScreen({ cols: 80, rows: 4, engine: p.engine });
    const flow: boolean[] = [];
    screen.onFlowControl((pause) => flow.push(pause));
    const chunk = `${'\x1b[31mred\x1b[0m '.repeat(1000)}\r\n`;
    let sent = 0;
    while (flow.length === 0 && sent < SCREEN_BACKLOG_HIGH_CHARS * 2) {
      screen.write(chunk);
      sent += chunk.length;
    }
    expect(flow).toEqual([true]);
    expect(sent).toBeGreaterThan(SCREEN_BACKLOG_HIGH_CHARS);
    await until('the resume', () => flow.length === 2);
    expect(flow).toEqual([true, false]);
    screen.write('end');
    expect((await shows(screen, 'end')).at(-1)).toContain('end');
  });

  it('past half the high mark it asks the worker where it is once, not once per write', async () => {
    const p = pool(1);
    await p.ready();
    const screen = createPaneScreen({ cols: 80, rows: 4, engine: p.engine });
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    const chunk = `${'x'.repeat(8 * 1024 - 2)}\r\n`;
    // Why: 90 % of the high mark in one turn: no state can come back in between, and no pause.
    for (let sent = 0; sent < SCREEN_BACKLOG_HIGH_CHARS * 0.9; sent += chunk.length) screen.write(chunk);
    await until('the batch to go out', () => posted.mock.calls.length > 0);
    const ops = posted.mock.calls.flatMap(([m]) => (m as { ops?: (readonly unknown[])[] }).ops ?? []);
    posted.mockRestore();
    expect(ops.filter((op) => op[0] === 'write').length).toBeGreaterThan(200);
    expect(ops.filter((op) => op[0] === 'sync')).toHaveLength(1);
    screen.write('end');
    expect((await shows(screen, 'end')).at(-1)).toContain('end');
  });

  it('a crashed worker is restarted; its panes are rebuilt with their rows, cursor and modes, old titles not reported again', async () => {
    const errors: [unknown, boolean][] = [];
    const p = pool(1, errors);
    await p.ready();
    let clock = 1000;
    const screen = createPaneScreen({ cols: 30, rows: 4, engine: p.engine, now: () => clock });
    const titles: string[] = [];
    screen.onTitle((t) => titles.push(`${t.text}@${t.at}`));
    // A TUI: alternate screen, bracketed paste, a title, a spinner line and its composer.
    screen.write('\x1b[?1049h\x1b[?2004h\x1b]0;✋ waiting\x07\x1b[1;1H✻ spinning\x1b[3;1H> composer here\x1b[3;8H');
    await shows(screen, '> composer here');
    clock = 60_000;
    await p.crash(0);
    screen.write('X');
    const rows = await shows(screen, '> compoXer here');
    expect(rows).toEqual(['✻ spinning', '', '> compoXer here', '']);
    expect(screen.bracketedPaste()).toBe(true);
    expect(titles).toEqual(['✋ waiting@1000']);
    expect(screen.title()).toEqual({ text: '✋ waiting', at: 1000 });
    // the rebuilt emulator is in the alternate buffer: leaving it shows the (empty) normal one
    screen.write('\x1b[?1049l');
    await screen.settled();
    expect(screen.renderedRows()).toEqual(['', '', '', '']);
    expect(errors.map(([, retired]) => retired)).toEqual([false]);
    expect(p.retired()).toBe(0);
  });

  it(`after ${SCREEN_WORKER_RESTARTS_MAX} restarts a crashing worker is retired: its panes parse in this thread`, async () => {
    const errors: [unknown, boolean][] = [];
    const p = pool(1, errors);
    await p.ready();
    const screen = createPaneScreen({ cols: 30, rows: 4, engine: p.engine });
    screen.write('\x1b[?2004hkept');
    await shows(screen, 'kept');
    for (let crash = 0; crash <= SCREEN_WORKER_RESTARTS_MAX; crash += 1) {
      await p.crash(0);
      await until('the crash to be seen', () => errors.length === crash + 1);
      if (crash < SCREEN_WORKER_RESTARTS_MAX) await p.ready().then(() => shows(screen, 'kept'));
    }
    expect(errors.map(([, retired]) => retired)).toEqual([false, false, false, true]);
    expect(p.retired()).toBe(1);
    screen.write(' and more');
    expect((await shows(screen, 'kept and more'))[0]).toBe('kept and more');
    expect(screen.bracketedPaste()).toBe(true);
    // a pane opened now never reaches a worker
    const later = createPaneScreen({ cols: 10, rows: 2, engine: p.engine });
    later.write('local');
    await shows(later, 'local');
    expect(p.load()).toEqual([0]);
    screen.freeze();
    expect(screen.renderedRows()[0]).toBe('kept and more');
  });

  it('after close, open screens answer from their mirrors (no call can reach a worker) and settle at once', async () => {
    const p = pool(1);
    const screen = createPaneScreen({ cols: 20, rows: 2, engine: p.engine });
    screen.write('last words');
    await shows(screen, 'last words');
    await p.close();
    screen.write(' unseen');
    await screen.settled();
    expect(screen.renderedRows()).toEqual(['last words', '']);
    expect(screen.currentRows()).toEqual(['last words', '']);
    expect(screen.snapshot({ scrollbackRows: 0, maxBytes: 1000 })).toEqual({ data: 'last words' });
    screen.freeze();
    expect(screen.renderedRows()).toEqual(['last words', '']);
  });

  it('a resize with no output after it reaches the mirror at the next settle', async () => {
    const p = pool(1);
    const screen = createPaneScreen({ cols: 20, rows: 6, engine: p.engine });
    screen.write('1\r\n2\r\n3\r\n4\r\n5\r\n> prompt');
    await shows(screen, '> prompt');
    screen.resize(20, 3);
    await screen.settled();
    expect(screen.renderedRows()).toEqual(['4', '5', '> prompt']);
  });

  it('freezing a pane right after its worker crashed does not throw (the rebuilt worker or the mirror answers)', async () => {
    const p = pool(1);
    await p.ready();
    const screen = createPaneScreen({ cols: 20, rows: 2, engine: p.engine });
    screen.write('final words');
    await shows(screen, 'final words');
    await p.crash(0);
    expect(() => screen.freeze()).not.toThrow();
    expect(screen.renderedRows()[0]).toBe('final words');
  });
});
