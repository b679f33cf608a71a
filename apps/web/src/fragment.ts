/** What the address fragment asks for. */
export type Fragment =
  | { kind: 'none' }
  | { kind: 'pair'; code: string }
  | { kind: 'pane'; handle: string }
  | { kind: 'bad'; message: string };

/** Longest fragment value taken (a pane handle or pairing code is far shorter). */
const MAX_FRAGMENT_CHARS = 512;

/**
 * Reads `#pair=CODE` or `#pane=HANDLE` (percent-encoded). Anything malformed is `bad` with a
 * message to show: it never throws, so a broken link still shows the board.
 *
 * @example
 * parseFragment('#pane=pane-1a2b'); // { kind: 'pane', handle: 'pane-1a2b' }
 * parseFragment('#pane=%E0%A4%A'); // { kind: 'bad', message: 'the link names no valid pane …' }
 */
export function parseFragment(hash: string): Fragment {
  if (hash === '' || hash === '#') return { kind: 'none' };
  if (hash.length > MAX_FRAGMENT_CHARS) return { kind: 'bad', message: 'the link is too long to be an orca link' };
  const pair = /^#pair=([A-Za-z0-9_-]{8,200})$/.exec(hash);
  if (pair?.[1]) return { kind: 'pair', code: pair[1] };
  if (hash.startsWith('#pair='))
    return { kind: 'bad', message: 'the pairing link is damaged; run `orca web pair` for a new one' };
  const pane = /^#pane=(.+)$/.exec(hash);
  if (pane?.[1]) {
    let handle: string;
    try {
      handle = decodeURIComponent(pane[1]);
    } catch {
      return { kind: 'bad', message: 'the link names no valid pane (its address is malformed); showing the board' };
    }
    // Why: a handle is printable text; control characters never name a pane.
    if (handle.length === 0 || /[\u0000-\u001f\u007f-\u009f]/.test(handle))
      return { kind: 'bad', message: 'the link names no valid pane; showing the board' };
    return { kind: 'pane', handle };
  }
  return { kind: 'bad', message: 'the link is not one orca understands; showing the board' };
}
