import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATCH_WINDOW_CHARS, MATCH_WINDOW_LINES } from '../limits.ts';
import { findBlockedSignal } from './blocked-signal.ts';
import { buildMatchWindow, windowFromScreen, windowFromTail } from './match-window.ts';
import { stripAnsi } from './strip-ansi.ts';

const reasonOf = (tail: string | readonly string[]) => findBlockedSignal(tail)?.reason ?? null;

describe('stripAnsi and line normalisation', () => {
  it('strips CSI, OSC, charset and two-byte sequences and C0 but TAB', () => {
    expect(stripAnsi('\x1b[1;31mA\x1b[0m\x1b]0;t\x07B\x1b(B\x1b7C\tD\x00\x08')).toBe('ABC\tD');
  });

  it('a lone CR restarts the line; CRLF does not', () => {
    expect(windowFromTail('old text\rnew\r\nnext\r\n').lines.map((l) => l.text)).toEqual(['new', 'next']);
  });

  it('trims edge box drawing; a box-only line is blank', () => {
    expect(windowFromTail('╭────╮\n│ Hi There │\n╰────╯').lines).toEqual([{ text: 'hi there', indent: 1, offset: 7 }]);
  });

  it('reads at most MATCH_WINDOW_LINES non-blank lines and MATCH_WINDOW_CHARS from the bottom', () => {
    const tail = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n\n');
    const w = windowFromTail(tail);
    expect(w.lines.length).toBe(MATCH_WINDOW_LINES);
    expect(w.lines.at(-1)?.text).toBe('line 99');
    const wide = windowFromTail(`Run this command?\n${'x'.repeat(MATCH_WINDOW_CHARS)}\n`);
    expect(wide.lines.map((l) => l.text)).toEqual(['x'.repeat(MATCH_WINDOW_CHARS - 1)]);
  });

  it('array tails read the same lines as the joined string', () => {
    const lines = ['Update available!', '', '  Press enter to continue'];
    expect(windowFromTail(lines).lines.map((l) => l.text)).toEqual(
      windowFromTail(lines.join('\n')).lines.map((l) => l.text),
    );
  });

  it('prefers a non-blank screen over the tail; a blank screen falls back to the tail', () => {
    expect(buildMatchWindow({ screen: ['', 'ready'], tail: 'old' }).from).toBe('screen');
    expect(buildMatchWindow({ screen: ['', '  '], tail: 'old' }).from).toBe('tail');
    expect(windowFromScreen(['a', '', 'b']).lines.map((l) => l.offset)).toEqual([0, 2]);
  });
});

describe('findBlockedSignal rules', () => {
  it.each([
    ['Update available! 1 -> 2\nPress enter to continue', 'codex-update-prompt'],
    ['Update available! 1 -> 2\nenter continue · esc skip', 'codex-update-prompt'],
    ['Choose working directory to resume\nPress enter to continue', 'codex-cwd-prompt'],
    ['Codex just got an upgrade\nPress enter to continue', 'codex-model-migration-prompt'],
    ['2 hooks need review\nPress enter to confirm', 'codex-hooks-review-prompt'],
    [
      '  Hooks need review\n› 1. Review hooks\n  2. Trust all and continue\n  enter confirm · esc skip',
      'codex-hooks-review-prompt',
    ], // Codex 0.171.0
    ['Do you trust this folder?\n1. Yes', 'agent-trust-workspace'],
    ['Trust this workspace?\n/home/u/x', 'agent-trust-workspace'],
    ['Sandbox blocked the write\nPress enter to confirm', 'agent-interactive-prompt'],
    ['Codex wants to edit a file\nPress enter to confirm', 'codex-interactive-prompt'],
    ['Edit needs permission\nenter approve · esc deny', 'agent-interactive-prompt'],
    ['Permission required\nAllow once\nDeny', 'codex-interactive-prompt'],
    ['Run this command?\n→ Run (once) (y)\n  Skip (esc or n)', 'agent-approval-prompt'],
    ['Do you want to proceed?\n❯ 1. Yes\n  2. No', 'agent-approval-prompt'],
  ])('%j → %s', (tail, reason) => {
    expect(reasonOf(tail)).toBe(reason);
  });

  it.each([
    ['press enter to continue', 'no context word near the phrase'],
    ['Update available!\nRun npm i -g codex', 'no press-enter phrase'],
    ['Permission required\nAllow once', 'one choice only'],
    ['Do you want to proceed?\n  1. Yes\n  2. Maybe', 'last row is not No, and no selection cursor'],
    ['Do you want to proceed?\n❯ 1. Yes\n  2. No\nok, proceeding', 'a line below the menu'],
    ['Run this command?\n→ Run (once) (y)', 'one choice only'],
    ['Run this command?\n→ Run (once) (y)\n  Skip (esc or n)\n$ ', 'a shell prompt below'],
    ['I trust this will work', 'trust with no workspace word'],
  ])('%j is no signal (%s)', (tail) => {
    expect(reasonOf(tail)).toBe(null);
  });

  it('the latest line wins', () => {
    expect(reasonOf('Update available!\nPress enter to continue\nDo you trust this folder?')).toBe(
      'agent-trust-workspace',
    );
    expect(reasonOf('Do you trust this folder?\nok\nUpdate available!\nPress enter to continue')).toBe(
      'codex-update-prompt',
    );
  });

  it('reports the anchor line, its offset and the start of the prompt', () => {
    expect(findBlockedSignal('x\nUpdate available!\nPress enter to continue')).toEqual({
      reason: 'codex-update-prompt',
      kind: 'modal',
      line: 'press enter to continue',
      index: 2,
      offset: 20,
      startOffset: 2,
    });
  });

  it('a live ready prompt below dismisses a modal but never an approval menu', () => {
    const header = '\n>_ OpenAI Codex (v1)\nmodel: gpt\ndirectory: ~/r\n';
    expect(reasonOf(`Update available!\nPress enter to continue${header}`)).toBe(null);
    expect(reasonOf(`Do you trust this folder?\nCursor Agent\n→ Add a follow-up`)).toBe(null);
  });

  it('property: never throws on any text, string or array', () => {
    const word = fc.constantFrom(
      'press enter to confirm',
      'codex',
      'run this command?',
      '(y)',
      '(esc or n)',
      'run (once)',
      'do you want to',
      '1. yes',
      '2. no',
      'trust this',
      'folder',
      'permission required',
      'allow once',
      'deny',
      '\n',
      '\r',
      '\x1b[31m',
      '│',
      '› ',
      '✗ you canceled the request to run',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(word, fc.string({ unit: 'binary', maxLength: 12 })), { maxLength: 40 }),
        (parts) => {
          const text = parts.join('');
          const a = findBlockedSignal(text);
          const b = findBlockedSignal(text.split('\n'));
          expect(a === null || typeof a.reason === 'string').toBe(true);
          expect(b === null || typeof b.reason === 'string').toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('Qwen Code 0.24.4 (agents lab)', () => {
  // Why: while it repaints, Qwen Code draws a scrollbar in the last column (`█` thumb, `│` track).
  const dialog = [
    '  > run the slow tool                                                                                                  █',
    '                                                                                                                       █',
    '  ◆︎ Running the slow tool.                                                                                             █',
    '  ? Shell node -e "setTimeout(() => {}, 4000)" && touch slow-tool-ran.txt (Run the slow tool) ←                        █',
    '                                                                                                                       █',
    '     node -e "setTimeout(() => {}, 4000)" && touch slow-tool-ran.txt                                                   █',
    '                                                                                                                       █',
    "   Allow execution of: 'node, touch'?                                                                                  █",
    '                                                                                                                       █',
    '   › 1. Yes, allow once                                                                                                █',
    "     2. Always allow run 'node *' commands, run 'touch *' commands in this project                                     █",
    "     3. Always allow run 'node *' commands, run 'touch *' commands for this user                                       █",
    '     4. No, suggest changes (esc)                                                                                      █',
    '                                                                                                                       █',
    '',
    '  ⠏ Waiting for user confirmation...',
  ];
  it('its shell approval is an approval prompt, with or without the scrollbar column', () => {
    const withBar = findBlockedSignal(windowFromScreen(dialog));
    const without = findBlockedSignal(windowFromScreen(dialog.map((row) => row.replace(/[█│]$/, ' '))));
    expect(withBar?.reason).toBe('agent-approval-prompt');
    expect(without?.reason).toBe('agent-approval-prompt');
  });
});

describe('Droid 0.225.2 tool approval (agents lab screens)', () => {
  const shell = [
    '   Execute sleep 4',
    '           && touch slow-tool-ran.txt',
    '  Command to approve · low risk',
    '  ↳ sleep 4 && touch slow-tool-ran.txt',
    '  Why this needs approval: lab',
    '╭──────────────────────────────────────────╮',
    '│  Yes, allow                              │',
    '│  Yes, and always allow low impact commands (file edits and read-only commands) │',
    '│  No, cancel                              │',
    '╰──────────────────────────────────────────╯',
    '  ↑↓ navigate   Enter select   Esc cancel   Alt/Option+E to inspect approval details',
  ];

  it('the approval box over its footer is an approval prompt (shell, and edit with its diff hint)', () => {
    expect(findBlockedSignal(windowFromScreen(shell))).toMatchObject({
      reason: 'agent-approval-prompt',
      kind: 'approval',
      line: '↑↓ navigate   enter select   esc cancel   alt/option+e to inspect approval details',
    });
    const edit = [
      'Edit README.md: (+1 added, -1 removed)',
      '│   1        # lab project │',
      '│        1   # edited by the lab │',
      '│  Yes, allow │',
      '│  No, cancel │',
      '  ↑↓ navigate   Enter select   Esc cancel   Ctrl+O expand diff   Alt/Option+E to inspect approval details',
    ];
    expect(reasonOf(edit)).toBe('agent-approval-prompt');
    // a narrow pane wraps the long row and the footer's hints
    expect(
      reasonOf([
        '│  Yes, allow │',
        '│  Yes, and always allow low │',
        '│  impact commands │',
        '│  No, cancel │',
        '  ↑↓ navigate   Enter select   Esc cancel',
        '  Alt/Option+E to inspect',
      ]),
    ).toBe('agent-approval-prompt');
  });

  it('twins: no footer, rows that are not its own, or the footer far below are no prompt', () => {
    expect(reasonOf(shell.slice(0, -1))).toBe(null);
    expect(reasonOf([...shell.slice(0, 6), '│  Maybe │', '│  No, cancel │', shell.at(-1) ?? ''])).toBe(null);
    expect(
      reasonOf([...shell, ' ⠇ Executing...  (Press ESC to stop)', '│ > Enter to steer · Ctrl+Enter to queue │']),
    ).toBe(null);
    expect(reasonOf(['│ > Yes, allow │', '│ No, cancel please │', '  ↑↓ navigate   Enter select   Esc cancel'])).toBe(
      null,
    );
  });
});
