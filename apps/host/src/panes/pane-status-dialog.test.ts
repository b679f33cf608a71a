import { describe, expect, it } from 'vitest';
import { createPaneStatus } from './pane-status.ts';
import type { PaneScreen } from './screen.ts';

const DIALOG = [
  '● Bash(sleep 60)',
  '│ Do you want to proceed?',
  '│ ❯ 1. Yes',
  "│   2. Yes, and don't ask again for sleep commands",
  '│   3. No, and tell Claude what to do differently (esc)',
];
const COMPOSER = ['  Interrupted · What should Claude do instead?', '────', '❯', '────'];

function paneWith(screen: { rows: string[]; behind?: boolean }, now: () => number) {
  const fake = {
    write: () => undefined,
    title: () => null,
    onTitle: () => undefined,
    renderedRows: () => Object.freeze([...screen.rows]),
    tail: () => screen.rows.join('\n'),
    caughtUp: () => screen.behind !== true,
    settled: async () => undefined,
  } as unknown as PaneScreen;
  return createPaneStatus({
    ptyId: 'p#1',
    screen: fake,
    now,
    exited: () => false,
    readForeground: async () => 'claude',
    onEvidence: () => undefined,
  });
}

describe('pane status: a permission dialog answered inside the draw grace', () => {
  it('a dialog seen after its row and gone now ends the grace: the pane is idle at once, not 1.5 s later', async () => {
    let now = 10_000;
    const screen = { rows: COMPOSER };
    const status = paneWith(screen, () => now);
    status.addHookEvent({ source: 'claude', payload: { hook_event_name: 'UserPromptSubmit' }, receivedAt: now - 500 });
    status.addHookEvent({
      source: 'claude',
      payload: { hook_event_name: 'PermissionRequest', tool_name: 'Bash' },
      receivedAt: now,
    });
    // Hook first, dialog not drawn yet: the grace holds `permission`.
    expect((await status.analyse()).verdict.status).toBe('permission');
    now += 400;
    screen.rows = DIALOG;
    expect((await status.analyse()).verdict.status).toBe('permission');
    now += 300;
    screen.rows = COMPOSER; // Esc: the dialog is gone, well inside the 1.5 s grace
    const after = await status.analyse();
    expect(after.verdict.status).toBe('idle');
  });

  it('a dialog never seen on the screen keeps the grace (the agent may still be drawing it)', async () => {
    let now = 10_000;
    const status = paneWith({ rows: COMPOSER }, () => now);
    status.addHookEvent({ source: 'claude', payload: { hook_event_name: 'UserPromptSubmit' }, receivedAt: now - 500 });
    status.addHookEvent({
      source: 'claude',
      payload: { hook_event_name: 'PermissionRequest', tool_name: 'Bash' },
      receivedAt: now,
    });
    now += 700;
    expect((await status.analyse()).verdict.status).toBe('permission');
    now += 1_000; // past the grace: healed by the dialog-free screen, as before
    expect((await status.analyse()).verdict.status).toBe('idle');
  });

  it('a dialog that appeared before the row, or read from a screen still behind, does not end the grace', async () => {
    let now = 10_000;
    const screen: { rows: string[]; behind?: boolean } = { rows: DIALOG };
    const status = paneWith(screen, () => now);
    status.addHookEvent({ source: 'claude', payload: { hook_event_name: 'UserPromptSubmit' }, receivedAt: now - 900 });
    // An earlier dialog (approved, its tool ran fast) is still drawn when the next PermissionRequest comes.
    expect((await status.analyse()).verdict.status).toBe('permission');
    now += 100;
    status.addHookEvent({
      source: 'claude',
      payload: { hook_event_name: 'PermissionRequest', tool_name: 'Bash' },
      receivedAt: now,
    });
    // The screen worker is behind and still shows the old dialog: not evidence for the new row.
    screen.behind = true;
    now += 50;
    expect((await status.analyse()).verdict.status).toBe('permission');
    // Caught up: the old dialog is gone and the new one is not drawn yet — the grace holds.
    screen.behind = false;
    screen.rows = COMPOSER;
    now += 150;
    expect((await status.analyse()).verdict.status).toBe('permission');
    // The new dialog drawn, then answered: now the grace ends.
    now += 200;
    screen.rows = DIALOG;
    expect((await status.analyse()).verdict.status).toBe('permission');
    now += 200;
    screen.rows = COMPOSER;
    expect((await status.analyse()).verdict.status).toBe('idle');
  });
});
