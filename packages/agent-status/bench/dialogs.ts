// Dialog screens used by the benchmarks (the same on-screen facts as the fixture corpus).
const filler = (n: number) => Array.from({ length: n }, (_, i) => `\x1b[32m✓\x1b[0m test ${i} passed in ${i % 7}ms`);

const DIALOGS: Record<string, string[]> = {
  'cursor-approval': [
    '  Run this command?',
    '  Not in allowlist: sleep 60',
    '  → Run (once) (y)',
    '    Add Shell(sleep) to allowlist? (tab)',
    '    Run Everything (shift+tab)',
    '    Skip (esc or n)',
  ],
  'claude-menu': [
    '│ Do you want to proceed?                          │',
    '│ ❯ 1. Yes                                         │',
    "│   2. Yes, and don't ask again for sleep commands │",
    '│   3. No, and tell Claude what to do differently (esc) │',
  ],
  'codex-update': [
    '✨ Update available! 0.44.0 -> 0.46.0',
    '› 1. Update now',
    '  2. Skip',
    '  Press enter to continue',
  ],
  'codex-exec': [
    '  Would you like to run the following command?',
    '  $ npm install',
    '› 1. Yes, proceed (y)',
    '  3. No, and tell Codex what to do differently (esc)',
    '  Press enter to confirm or esc to cancel',
  ],
  trust: [
    '  Do you trust the files in this folder?',
    '  /home/u/repo',
    '❯ 1. Yes, proceed',
    '  2. No, exit',
    '  Enter to confirm · Esc to exit',
  ],
  'no-dialog': ['  building…', '  compiled 12 modules'],
};

/** 40-line tails ending in each dialog kind. */
export function fortyLineTails(): [string, string][] {
  return Object.entries(DIALOGS).map(([name, dialog]) => [
    name,
    [...filler(40 - dialog.length), ...dialog].join('\r\n'),
  ]);
}

/** A tail of `lines` retained lines ending in a Cursor approval menu. */
export function retainedTail(lines: number): string[] {
  const dialog = DIALOGS['cursor-approval'] ?? [];
  return [...filler(lines - dialog.length), ...dialog];
}
