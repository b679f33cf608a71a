import { describe, expect, it } from 'vitest';
import { createPaneScreen } from './screen.ts';

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
    const before = {
      rendered: screen.renderedRows(),
      serialized: screen.serialize(100),
      title: screen.title(),
      tail: screen.tail(),
      size: [screen.cols, screen.rows],
      paste: screen.bracketedPaste(),
    };
    expect(before.rendered).toEqual(['line 5', 'line 6', 'last']);
    screen.freeze();
    expect(screen.frozen).toBe(true);
    screen.resize(80, 30);
    await screen.settled();
    expect({
      rendered: screen.renderedRows(),
      serialized: screen.serialize(100),
      title: screen.title(),
      tail: screen.tail(),
      size: [screen.cols, screen.rows],
      paste: screen.bracketedPaste(),
    }).toEqual(before);
    expect(screen.serialize(2)).toBe('line 6\r\nlast');
    screen.write('!');
    expect(screen.tail()).toBe(`${before.tail}!`);
    expect(screen.renderedRows()).toEqual(before.rendered);
    screen.dispose();
    expect(screen.renderedRows()).toEqual(before.rendered);
  });
});
