import { describe, expect, it } from 'vitest';
import { PERMISSION_DIALOG_DRAW_GRACE_MS, SPINNER_FRAME_AFTER_DONE_MS } from '../limits.ts';
import type { PaneEvidence, StatusRow } from '../types.ts';
import { evaluatePane } from './evaluate-pane.ts';
import { dialogDrawGraceEndsAt } from './explicit-row.ts';
import { createProbeGate } from './probe-gate.ts';
import { evaluateSendGuard, screenMenuShape } from './send-guard.ts';
import { evaluateTuiIdle } from './tui-idle.ts';

// Evidence shaped like what the host saw of the real CLIs in the agents lab.
const row = (state: StatusRow['state'], at: number, extra: Partial<StatusRow> = {}): StatusRow => ({
  state,
  receivedAt: at,
  stateStartedAt: at,
  source: 'claude',
  via: 'hook',
  ...extra,
});
const fg = (cmd: string) => ({ read: async () => cmd });
const ev = (extra: Partial<PaneEvidence>): PaneEvidence => ({ now: 10_000, ptyId: 'p', waitBlockedAt: null, ...extra });
const verdict = (e: PaneEvidence) => evaluatePane(e, { gate: createProbeGate() });

const CLAUDE_IDLE = ['✻ Churned for 4s', '────', '❯', '────', '  ⏸ manual mode on · ? for shortcuts'];
const CLAUDE_TRUST = [
  ' Quick safety check: Is this a project you created or one you trust?',
  ' ❯ No, exit',
  '   Yes, I trust this folder',
  ' Enter to confirm · Esc to cancel',
];
const CODEX_IDLE = [
  '• Done.',
  '› Ask Codex to do anything',
  '  gpt-5 default · ~/p',
  '  ← for agents · ? for shortcuts',
];

describe('fail closed: a known agent in front gets its screen rules before any hook or title', () => {
  it('the startup trust dialog with no title and no stamp is a wait when claude is in front', async () => {
    expect(await verdict(ev({ screen: CLAUDE_TRUST, probe: fg('claude') }))).toEqual({
      status: 'permission',
      isRunningAgent: true,
      agentWait: { source: 'prompt-text', reason: 'agent-trust-workspace' },
    });
  });

  it('the same screen with a shell in front is no agent wait (the probe decides)', async () => {
    expect((await verdict(ev({ screen: CLAUDE_TRUST, probe: fg('bash') }))).status).toBeNull();
  });

  it('Codex at its composer before any hook (its title is the folder name) is idle', async () => {
    expect(
      await verdict(
        ev({
          screen: CODEX_IDLE,
          title: { text: 'project', live: true, at: 9000 },
          probe: fg('node /x/@openai/codex/bin/codex.js'),
        }),
      ),
    ).toEqual({
      status: 'idle',
      isRunningAgent: true,
      agentWait: null,
    });
  });
});

describe('rows the real CLIs leave behind', () => {
  it('Claude 2.1.x PermissionRequest (no tool_use_id) is healed once the dialog left the screen: an approved tool runs', async () => {
    const rows = [row('working', 1000), row('waiting', 2000, { dialog: true })];
    const v = await verdict(
      ev({
        rows,
        screen: ['● Bash(sleep 4)', '✽ Creating… (2s)', '────', '❯', '────'],
        title: { text: '◑ Claude Code', live: true, at: 3000 },
        probe: fg('claude'),
      }),
    );
    expect(v).toEqual({ status: 'working', isRunningAgent: true, agentWait: null });
  });

  it('a PermissionRequest whose dialog is not drawn yet holds under the ✳ title; past the grace a dialog-free screen heals it', async () => {
    // Claude 2.1.332 in the lab: PreToolUse, the ✳ title, PermissionRequest, then the dialog ~0.4 s later.
    const rows = [row('working', 6284), row('working', 6369), row('waiting', 6480, { dialog: true })];
    const e = ev({
      rows,
      screen: ['● Building.', '  Waiting for permission…', '❯', '  · esc to interrupt'],
      title: { text: '✳ Claude Code', live: true, at: 6476 },
      probe: fg('claude'),
    });
    expect(await verdict({ ...e, now: 6600 })).toEqual({
      status: 'permission',
      isRunningAgent: true,
      agentWait: { source: 'hook', since: 6480 },
    });
    expect(await verdict({ ...e, now: 6480 + PERMISSION_DIALOG_DRAW_GRACE_MS - 1 })).toMatchObject({
      status: 'permission',
    });
    // a deny inside the grace: the same dialog-free screen heals once the grace has passed
    expect(await verdict({ ...e, now: 6480 + PERMISSION_DIALOG_DRAW_GRACE_MS })).toEqual({
      status: 'idle',
      isRunningAgent: true,
      agentWait: null,
    });
    // a later non-permission row heals at once, grace or not
    expect((await verdict({ ...e, rows: [...rows, row('working', 6500)], now: 6600 })).status).toBe('working');
    // when a host should look again: the grace's end for the dialog row, never for others
    expect(dialogDrawGraceEndsAt(row('waiting', 6480, { dialog: true }))).toBe(6480 + PERMISSION_DIALOG_DRAW_GRACE_MS);
    expect(dialogDrawGraceEndsAt(row('waiting', 6480, { toolUseId: 't1' }))).toBe(
      6480 + PERMISSION_DIALOG_DRAW_GRACE_MS,
    );
    expect(dialogDrawGraceEndsAt(row('waiting', 6480))).toBeNull();
    expect(dialogDrawGraceEndsAt(row('working', 6369))).toBeNull();
  });

  it('a dialog the host saw drawn after its row and gone now was answered: the grace ends at once (Esc in the lab)', async () => {
    // The agents-lab dialog bench: Esc ~0.3 s after the PermissionRequest hook; the composer is back,
    // yet the grace held `permission` for ~1 s more and a prompt sent then was refused.
    const rows = [row('working', 6284), row('waiting', 6480, { dialog: true })];
    const composer = ev({
      rows,
      screen: ['  Interrupted · What should Claude do instead?', '────', '❯', '────'],
      title: { text: '✳ Claude Code', live: true, at: 6476 },
      probe: fg('claude'),
    });
    // Seen after the row (the dialog was drawn at ~6880), gone at 7000: answered.
    expect(await verdict({ ...composer, now: 7000, promptSeenAt: 6900 })).toMatchObject({ status: 'idle' });
    // Seen only before the row (an earlier prompt), or never: still the grace.
    expect(await verdict({ ...composer, now: 7000, promptSeenAt: 6400 })).toMatchObject({ status: 'permission' });
    expect(await verdict({ ...composer, now: 7000, promptSeenAt: null })).toMatchObject({ status: 'permission' });
    expect(await verdict({ ...composer, now: 7000 })).toMatchObject({ status: 'permission' });
    // The dialog still on the screen holds, seen or not.
    const dialog = {
      ...composer,
      screen: ['│ Do you want to proceed?', '│ ❯ 1. Yes', '│   2. No, and tell Claude what to do differently (esc)'],
    };
    expect(await verdict({ ...dialog, now: 7000, promptSeenAt: 7000 })).toMatchObject({ status: 'permission' });
    await expect(verdict({ ...composer, now: 7000, promptSeenAt: 'soon' as never })).rejects.toMatchObject({
      code: 'ORCA_STATUS_INVALID_EVIDENCE',
    });
  });

  it('a Codex spinner frame in the title just after its Stop is not a new turn; a spinner title later than the frame grace is', async () => {
    const rows = [row('working', 2620, { source: 'codex' }), row('done', 6723, { source: 'codex' })];
    const spinner = (at: number) => ({ text: '⠴ tell me a short story | project', live: true, at });
    const e = ev({ rows, screen: CODEX_IDLE, probe: fg('codex'), now: 6730 });
    expect((await verdict({ ...e, title: spinner(6728) })).status).toBe('idle');
    expect((await verdict({ ...e, title: spinner(6723 + SPINNER_FRAME_AFTER_DONE_MS), now: 7100 })).status).toBe(
      'working',
    );
  });

  it('while the dialog is on screen the row holds', async () => {
    const rows = [row('waiting', 2000, { dialog: true })];
    const v = await verdict(
      ev({
        rows,
        screen: [' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', ' Esc to cancel · Tab to amend'],
        probe: fg('claude'),
      }),
    );
    expect(v.status).toBe('permission');
  });

  it('Claude interrupted with Esc fires no hook: its ✳ title set after the working row says idle', async () => {
    const v = await verdict(
      ev({
        rows: [row('working', 1000)],
        screen: CLAUDE_IDLE,
        title: { text: '✳ Claude Code', live: true, at: 5000 },
        probe: fg('claude'),
      }),
    );
    expect(v).toEqual({ status: 'idle', isRunningAgent: true, agentWait: null });
  });

  it('Codex interrupted or failed fires no hook: a plain title after the working row and its composer say idle', async () => {
    const rows = [row('working', 1000, { source: 'codex' })];
    const title = { text: 'tell me a story | project', live: true, at: 5000 };
    expect((await verdict(ev({ rows, screen: CODEX_IDLE, title, probe: fg('codex') }))).status).toBe('idle');
    // twins: a spinner title, or a plain title older than the row, keep working
    expect(
      (
        await verdict(
          ev({ rows, screen: CODEX_IDLE, title: { ...title, text: '⠋ tell me | project' }, probe: fg('codex') }),
        )
      ).status,
    ).toBe('working');
    expect(
      (await verdict(ev({ rows, screen: CODEX_IDLE, title: { ...title, at: 900 }, probe: fg('codex') }))).status,
    ).toBe('working');
  });
});

describe('Droid 0.225.2 (agents lab): no hook answers its approval, its title never says what it does', () => {
  const droid = (state: StatusRow['state'], at: number, extra: Partial<StatusRow> = {}) =>
    row(state, at, { source: 'droid', ...extra });
  const APPROVAL = [
    '   Execute sleep 4',
    '  Command to approve · low risk',
    '│  Yes, allow │',
    '│  Yes, and always allow low impact commands (file edits and read-only commands) │',
    '│  No, cancel │',
    '  ↑↓ navigate   Enter select   Esc cancel   Alt/Option+E to inspect approval details',
  ];
  const RUNNING = [
    '   Execute sleep 4',
    ' ⠇ Executing...  (Press ESC to stop)',
    ' Auto (Off) · all actions require approval       Lab model',
    '│ > Enter to steer · Ctrl+Enter to queue │',
    '[⏱ 8s] ? for help                                IDE ◌',
  ];
  const IDLE = [
    ' Auto (Off) · all actions require approval       Lab model',
    '│ > Try "Search the documentation for this library" │',
    '? for help                                       IDE ◌',
  ];
  const title = { text: '⛬ Lab session', live: true, at: 1500 };
  const rows = [droid('working', 1000), droid('working', 1100), droid('waiting', 1200, { dialog: true })];

  it('its approval box is an approval wait; once answered the approved tool runs: working', async () => {
    expect(await verdict(ev({ rows, screen: APPROVAL, title, probe: fg('droid'), waitBlockedAt: 1300 }))).toEqual({
      status: 'permission',
      isRunningAgent: true,
      agentWait: { source: 'prompt-text', reason: 'agent-approval-prompt', since: 1300 },
    });
    expect(await verdict(ev({ rows, screen: RUNNING, title, probe: fg('droid'), promptSeenAt: 1300 }))).toEqual({
      status: 'working',
      isRunningAgent: true,
      agentWait: null,
    });
  });

  it('at startup (no hook but the ignored SessionStart) its composer says idle; a shell in front says nothing', async () => {
    const start = ev({ screen: IDLE, title: { text: '⛬ New Session', live: true, at: 900 }, probe: fg('droid') });
    expect(await verdict(start)).toEqual({ status: 'idle', isRunningAgent: true, agentWait: null });
    expect((await verdict({ ...start, probe: fg('bash') })).status).toBeNull();
    expect((await verdict({ ...start, screen: RUNNING, probe: fg('bash') })).status).toBeNull();
  });

  it('a working row under a newer plain title stays working while its in-progress line shows', async () => {
    const v = await verdict(ev({ rows: [droid('working', 1000)], screen: RUNNING, title, probe: fg('droid') }));
    expect(v.status).toBe('working');
  });
});

describe('Copilot CLI 1.0.102 (agents lab): a name-only title; its status line says what it does', () => {
  const copilot = (state: StatusRow['state'], at: number, extra: Partial<StatusRow> = {}) =>
    row(state, at, { source: 'copilot', ...extra });
  const composer = (status: string) => [' /tmp/p', '─'.repeat(40), '❯ ', '─'.repeat(40), status];
  const APPROVAL = [
    '╭──────────────────────────────────────────╮',
    '│ Run the slow tool                        │',
    '│ │ sleep 4 && touch slow-tool-ran.txt │   │',
    '│ Do you want to run this command?         │',
    '│                                          │',
    '│ ❯ 1. Yes                                 │',
    "│   2. Yes, and don't ask again for `sleep` │",
    '│   3. No, and tell Copilot what to do differently (Esc to stop) │',
    '│                                          │',
    '│ ↑/↓ to navigate · enter to select · esc to cancel │',
    '╰──────────────────────────────────────────╯',
  ];
  const RUNNING = composer(' ◉ Working · 108 B esc esc interrupt                 lab-model');
  const AT_REST = [
    ' ✗ 400 lab: scripted API error',
    ...composer(' ← open sidebar · Interactive · Manual Approval · / commands · ? help · tab next tab   lab-model'),
  ];
  const title = { text: 'run the slow tool - GitHub Copilot', live: true, at: 900 };
  const asked = [copilot('working', 1000), copilot('working', 1100), copilot('waiting', 1200, { dialog: true })];

  it('its permission_prompt is an approval wait; answered, the approved tool runs with no hook: working', async () => {
    expect(
      await verdict(ev({ rows: asked, screen: APPROVAL, title, probe: fg('copilot'), waitBlockedAt: 1300 })),
    ).toEqual({
      status: 'permission',
      isRunningAgent: true,
      agentWait: { source: 'prompt-text', reason: 'agent-approval-prompt', since: 1300 },
    });
    expect(
      await verdict(ev({ rows: asked, screen: RUNNING, title, probe: fg('copilot'), promptSeenAt: 1300 })),
    ).toEqual({
      status: 'working',
      isRunningAgent: true,
      agentWait: null,
    });
  });

  it('a turn that ended in an API error (ErrorOccurred, no Stop) is idle once its status line is at rest', async () => {
    const rows = [copilot('working', 1000)];
    expect(await verdict(ev({ rows, screen: AT_REST, title, probe: fg('copilot') }))).toEqual({
      status: 'idle',
      isRunningAgent: true,
      agentWait: null,
    });
    expect((await verdict(ev({ rows, screen: RUNNING, title, probe: fg('copilot') }))).status).toBe('working');
  });

  it('another agent’s screen with the same words changes nothing', async () => {
    const rows = [row('working', 1000)];
    expect((await verdict(ev({ rows, screen: AT_REST, title: undefined, probe: fg('claude') }))).status).toBe(
      'working',
    );
  });
});

describe('tui-idle and the send guard on real screens', () => {
  it('a working agent is never tui-idle, even after an accepted prompt and a recognised foreground', async () => {
    const e = ev({
      rows: [row('working', 9000)],
      screen: CLAUDE_IDLE,
      title: { text: '◐ Claude Code', live: true, at: 9500 },
      probe: fg('claude'),
    });
    expect((await evaluateTuiIdle(e, { lastOutputAt: 1000, acceptedPromptThisGeneration: true })).state).toBe(
      'pending',
    );
  });

  it('an unnamed menu blocks tui-idle and refuses the guard with zero bytes', async () => {
    const screen = ['Pick a theme', '❯ 1. Dark', '  2. Light', '  3. Auto'];
    const e = ev({ screen, probe: fg('claude') });
    expect(await evaluateTuiIdle(e, { lastOutputAt: 1000 })).toEqual({
      state: 'blocked',
      blockedReason: 'agent-interactive-prompt',
    });
    const v = await verdict(e);
    expect(evaluateSendGuard(v, { mode: 'inject', firstCheckAt: 0, now: 10_000, menu: screenMenuShape(e) })).toEqual({
      ok: false,
      code: 'agent_prompt_blocked',
    });
  });

  it('the idle composer passes the guard', async () => {
    const e = ev({ screen: CLAUDE_IDLE, title: { text: '✳ Claude Code', live: true, at: 9000 }, probe: fg('claude') });
    const v = await verdict(e);
    expect(evaluateSendGuard(v, { mode: 'inject', firstCheckAt: 0, now: 10_000, menu: screenMenuShape(e) })).toEqual({
      ok: true,
    });
  });
});
