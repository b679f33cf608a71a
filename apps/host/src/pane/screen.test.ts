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
});
