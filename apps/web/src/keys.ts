/** What a key does on the page. */
export type Shortcut = 'down' | 'up' | 'open' | 'next-waiting' | 'back' | 'filter' | 'prompt' | 'terminal' | 'help';

/** The parts of a key event a shortcut depends on. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/** True when the key goes to something that takes text: a field, or the terminal (its textarea). */
function typingInto(target: EventTarget | null): boolean {
  const el = target as { tagName?: string; isContentEditable?: boolean } | null;
  const tag = el?.tagName?.toLowerCase();
  return tag === 'input' || tag === 'textarea' || tag === 'select' || el?.isContentEditable === true;
}

/** Ctrl+]: leaves the pane's terminal for the board (the terminal never sends it to the pane). */
export function isLeaveKey(e: Pick<KeyLike, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  return e.ctrlKey && !e.metaKey && !e.altKey && e.key === ']';
}

const BOARD: Readonly<Record<string, Shortcut>> = {
  j: 'down',
  ArrowDown: 'down',
  k: 'up',
  ArrowUp: 'up',
  Enter: 'open',
  o: 'open',
  n: 'next-waiting',
  '/': 'filter',
  '?': 'help',
};

const PANE: Readonly<Record<string, Shortcut>> = {
  Escape: 'back',
  b: 'back',
  n: 'next-waiting',
  p: 'prompt',
  t: 'terminal',
  '?': 'help',
};

/**
 * The shortcut of a key on `view`, or null. Keys typed into a field or the terminal are theirs
 * (Esc in the terminal reaches the agent), and keys with Ctrl, Cmd or Alt are the browser's —
 * except Ctrl+], which leaves a pane from anywhere.
 *
 * @example
 * shortcutFor({ key: 'j', ctrlKey: false, metaKey: false, altKey: false, target: document.body }, 'board'); // 'down'
 */
export function shortcutFor(e: KeyLike, view: 'board' | 'pane'): Shortcut | null {
  // Why: the one way out of the terminal by keyboard, wherever the focus is (as `orca attach` detaches).
  if (view === 'pane' && isLeaveKey(e)) return 'back';
  if (e.ctrlKey || e.metaKey || e.altKey || typingInto(e.target)) return null;
  return (view === 'board' ? BOARD : PANE)[e.key] ?? null;
}
