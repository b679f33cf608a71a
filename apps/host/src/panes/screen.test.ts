import { afterAll, describe, expect, it } from 'vitest';
import { createPaneScreen as createScreen, inThreadScreens, type ScreenEngine } from './screen.ts';
import { createScreenPool } from './screen-pool.ts';

const pool = createScreenPool({ workers: 1 });
afterAll(() => pool.close());
const engines: [string, ScreenEngine][] = [
  ['in this thread', inThreadScreens],
  ['in a screen worker', pool.engine],
];

describe.each(engines)('pane screen %s', (_, engine) => {
  const createPaneScreen = (opts: Parameters<typeof createScreen>[0]) => createScreen({ ...opts, engine });

  describe('createPaneScreen', () => {
    it('renders rows, tracks OSC 0/2 titles with arrival times, keeps a bounded tail', async () => {
      let clock = 100;
      const screen = createPaneScreen({ cols: 20, rows: 4, now: () => clock });
      const titles: string[] = [];
      screen.onTitle((t) => titles.push(`${t.text}@${t.at}`));
      screen.write('\x1b]0;first\x07hello\r\nworld');
      clock = 200;
      screen.write('\x1b]2;second\x1b\\');
      await screen.settled();
      expect(screen.renderedRows()).toEqual(['hello', 'world', '', '']);
      expect(titles).toEqual(['first@100', 'second@200']);
      expect(screen.title()).toEqual({ text: 'second', at: 200 });
      expect(screen.tail()).toBe('\x1b]0;first\x07hello\r\nworld\x1b]2;second\x1b\\');
      expect(screen.serialize(10)).toBe('hello\r\nworld');
      screen.dispose();
    });

    it('freeze() keeps the final screen, title, tail, size and modes and drops the emulator', async () => {
      const screen = createPaneScreen({ cols: 20, rows: 3, now: () => 5 });
      screen.write('\x1b[?2004h\x1b]0;done\x07');
      for (let i = 1; i <= 6; i += 1) screen.write(`line ${i}\r\n`);
      screen.write('last');
      await screen.settled();
      const readers = () => ({
        rendered: screen.renderedRows(),
        serialized: screen.serialize(100),
        title: screen.title(),
        tail: screen.tail(),
        size: [screen.cols, screen.rows],
        paste: screen.bracketedPaste(),
      });
      const before = readers();
      expect(before.rendered).toEqual(['line 5', 'line 6', 'last']);
      screen.freeze();
      expect(screen.frozen).toBe(true);
      screen.resize(80, 30);
      await screen.settled();
      expect(readers()).toEqual(before);
      expect(screen.serialize(2)).toBe('line 6\r\nlast');
      screen.write('!');
      expect(screen.tail()).toBe(`${before.tail}!`);
      expect(screen.renderedRows()).toEqual(before.rendered);
      screen.dispose();
      expect(screen.renderedRows()).toEqual(before.rendered);
    });
  });

  describe('the attach snapshot of a pane screen', () => {
    it('stays within maxBytes: drops the scrollback first, then keeps the newest plain rows, flagged', async () => {
      const screen = createPaneScreen({ cols: 40, rows: 5 });
      for (let i = 0; i < 30; i += 1) screen.write(`\x1b[3${i % 8}mline ${i}\x1b[0m\r\n`);
      await screen.settled();
      const whole = screen.snapshot({ scrollbackRows: 100, maxBytes: 1_000_000 });
      expect(whole.truncatedByByteBudget).toBeUndefined();
      expect(whole.data).toContain('line 0');
      const viewportOnly = screen.snapshot({ scrollbackRows: 100, maxBytes: Buffer.byteLength(whole.data) - 1 });
      expect(viewportOnly.data).not.toContain('line 0');
      expect(viewportOnly.data).toContain('line 29');
      for (const maxBytes of [40, 12, 0]) {
        const tight = screen.snapshot({ scrollbackRows: 100, maxBytes });
        expect(tight.truncatedByByteBudget).toBe(true);
        expect(Buffer.byteLength(tight.data)).toBeLessThanOrEqual(maxBytes);
      }
    });

    it('an exited (frozen) pane answers with the same final screen it had', async () => {
      const screen = createPaneScreen({ cols: 30, rows: 4 });
      screen.write('\x1b[?1049h\x1b[1;31mbold red\x1b[0m\x1b[3;5H');
      await screen.settled();
      const live = screen.snapshot({ scrollbackRows: 0, maxBytes: 100_000 });
      screen.freeze();
      expect(screen.snapshot({ scrollbackRows: 0, maxBytes: 100_000 })).toEqual(live);
      expect(live.data).toContain('\x1b[?1049h');
    });
  });

  describe('a snapshot taken while the emulator still parses', () => {
    it('carries the writes not yet parsed, so nothing between the snapshot and live output is lost', async () => {
      const screen = createPaneScreen({ cols: 30, rows: 4 });
      screen.write('first\r\n');
      await screen.settled();
      screen.write('\x1b[32msecond\x1b[0m');
      const snap = screen.snapshot({ scrollbackRows: 0, maxBytes: 100_000 });
      const replay = createPaneScreen({ cols: 30, rows: 4 });
      replay.write(snap.data);
      await Promise.all([screen.settled(), replay.settled()]);
      expect(replay.renderedRows()).toEqual(screen.renderedRows());
      expect(screen.renderedRows().slice(0, 2)).toEqual(['first', 'second']);
    });
  });
});
