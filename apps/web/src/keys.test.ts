import { describe, expect, it } from 'vitest';
import { shortcutFor } from './keys.ts';

const key = (
  k: string,
  target: unknown = { tagName: 'BODY' },
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {},
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: target as EventTarget,
  ...mods,
});

describe('shortcutFor', () => {
  it('maps board and pane keys', () => {
    expect(['j', 'ArrowDown', 'k', 'Enter', 'n', '/'].map((k) => shortcutFor(key(k), 'board'))).toEqual([
      'down',
      'down',
      'up',
      'open',
      'next-waiting',
      'filter',
    ]);
    expect(['Escape', 'b', 'p', 't', 'n', 'j'].map((k) => shortcutFor(key(k), 'pane'))).toEqual([
      'back',
      'back',
      'prompt',
      'terminal',
      'next-waiting',
      null,
    ]);
  });

  it('leaves keys typed into a field or the terminal alone, and keys with modifiers to the browser', () => {
    expect(shortcutFor(key('Escape', { tagName: 'TEXTAREA' }), 'pane')).toBeNull();
    expect(shortcutFor(key('j', { tagName: 'INPUT' }), 'board')).toBeNull();
    expect(shortcutFor(key('j', { tagName: 'DIV', isContentEditable: true }), 'board')).toBeNull();
    expect(shortcutFor(key('n', undefined, { ctrlKey: true }), 'board')).toBeNull();
    expect(shortcutFor(key('Enter', null), 'board')).toBe('open');
  });

  it('Ctrl+] leaves a pane even from inside the terminal', () => {
    expect(shortcutFor(key(']', { tagName: 'TEXTAREA' }, { ctrlKey: true }), 'pane')).toBe('back');
    expect(shortcutFor(key(']', { tagName: 'TEXTAREA' }, { ctrlKey: true }), 'board')).toBeNull();
    expect(shortcutFor(key(']', { tagName: 'TEXTAREA' }), 'pane')).toBeNull();
  });
});
