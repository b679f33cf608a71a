// The realistic load model of the fleet bench: each pane replays one agent session into its PTY
// with the session's own timing, and its hook events are POSTed to the real listener at the same
// recorded times. Working and waiting panes replay real sessions recorded in the agents lab
// (`pnpm --filter @orca/agents-lab record`: Claude Code 2.1.332 against its model stand-in in a real
// host; recordings/*.json hold every PTY write and hook payload with its time). Idle panes and the
// stress case are synthetic, built from real bytes: the screens are the raw output tails Claude
// Code 2.1.332 drew in the lab (packages/agent-status/fixtures/real). Without a recording the
// working and waiting panes fall back to synthetic sessions of the same shape.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseFixture } from '@orca/agent-status/fixtures';
import { recordedSession } from './recorded.ts';
import type { OutputStep, Session, SessionKind } from './session-types.ts';

export type { HookStep, OutputStep, Session, SessionKind } from './session-types.ts';

/** Claude Code's spinner: ~10 frames/s (one every 100 ms), glyph cycling, elapsed seconds. */
const SPINNER_FRAME_MS = 100;
const SPINNER_GLYPHS = ['·', '✢', '✳', '✶', '✻', '✽', '✻', '✶', '✳', '✢'];
/** Stream bursts: this many chunks, this far apart (ms). */
const BURST_CHUNKS = 40;
const BURST_CHUNK_MS = 25;
/** A word of the permission menu that Claude writes in one piece (the rest is placed by cursor moves). */
export const MENU_MARKER = 'proceed?';

const fixturesDir = (() => {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@orca/agent-status/package.json')), 'fixtures/real');
})();

function realTail(moment: string): string {
  const text = readFileSync(join(fixturesDir, `claude-2.1.332-${moment}.fixture`), 'utf8');
  return parseFixture(text).tail;
}

/** A full repaint of a real screen: clear, then the tail's raw bytes (colours, cursor moves). */
function repaint(moment: string): string {
  return `\x1b[H\x1b[2J${realTail(moment)}`;
}

function spinner(from: number, to: number, row: number): OutputStep[] {
  const steps: OutputStep[] = [];
  for (let at = from, i = 0; at < to; at += SPINNER_FRAME_MS, i += 1) {
    const glyph = SPINNER_GLYPHS[i % SPINNER_GLYPHS.length];
    const secs = Math.floor((at - from) / 1000);
    steps.push({
      at,
      bytes: `\x1b7\x1b[${row};1H\x1b[38;5;174m${glyph}\x1b[39m Thinking… \x1b[2m(${secs}s · ↓ ${(i * 13) % 997} tokens · esc to interrupt)\x1b[22m\x1b[K\x1b8`,
    });
  }
  return steps;
}

function burst(at: number, text: string): OutputStep[] {
  const size = Math.ceil(text.length / BURST_CHUNKS);
  return Array.from({ length: BURST_CHUNKS }, (_, i) => ({
    at: at + i * BURST_CHUNK_MS,
    bytes: text.slice(i * size, (i + 1) * size),
  })).filter((s) => s.bytes.length > 0);
}

function claudePayload(event: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { hook_event_name: event, session_id: 'fleet', cwd: '/', transcript_path: '/tmp/fleet.jsonl', ...extra };
}

const bash = { tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run the tests' } };

/** A pane busy with prompts and tools: 8 s cycles of prompt → tool → streamed answer → stop. */
function workingSession(): Session {
  const stream = realTail('working-stream');
  return {
    kind: 'working',
    source: 'claude',
    menuMarker: MENU_MARKER,
    periodMs: 8000,
    hooks: [
      {
        at: 0,
        event: 'UserPromptSubmit',
        payload: claudePayload('UserPromptSubmit', { prompt: 'fix it' }),
        expect: 'working',
      },
      { at: 1000, event: 'PreToolUse', payload: claudePayload('PreToolUse', bash), expect: null },
      { at: 3000, event: 'PostToolUse', payload: claudePayload('PostToolUse', bash), expect: null },
      { at: 7000, event: 'Stop', payload: claudePayload('Stop'), expect: 'idle' },
    ],
    output: [
      { at: 300, bytes: repaint('working-stream') },
      ...spinner(400, 7000, 30),
      { at: 1050, bytes: repaint('working-tool') },
      ...burst(3050, stream),
      { at: 7050, bytes: repaint('idle') },
    ].sort((a, b) => a.at - b.at),
    menuAt: [],
  };
}

/** A pane that asks a human: 12 s cycles of prompt → a permission menu for 6 s → answered → stop. */
function waitingSession(): Session {
  return {
    kind: 'waiting',
    source: 'claude',
    menuMarker: MENU_MARKER,
    periodMs: 12_000,
    hooks: [
      {
        at: 0,
        event: 'UserPromptSubmit',
        payload: claudePayload('UserPromptSubmit', { prompt: 'run it' }),
        expect: 'working',
      },
      { at: 1500, event: 'PreToolUse', payload: claudePayload('PreToolUse', bash), expect: null },
      // Why: the menu is answered on screen first; this event races the repaint (not timed).
      { at: 7600, event: 'PostToolUse', payload: claudePayload('PostToolUse', bash), expect: null },
      { at: 10_500, event: 'Stop', payload: claudePayload('Stop'), expect: 'idle' },
    ],
    output: [
      { at: 300, bytes: repaint('working-stream') },
      ...spinner(400, 1500, 30),
      { at: 1600, bytes: repaint('permission-shell') },
      { at: 7500, bytes: repaint('working-tool') },
      ...spinner(7600, 10_500, 30),
      { at: 10_550, bytes: repaint('idle') },
    ].sort((a, b) => a.at - b.at),
    menuAt: [1600],
  };
}

/** A pane at its prompt: drawn once, one Stop, then nothing (what most panes of a fleet do). */
function idleSession(): Session {
  return {
    kind: 'idle',
    source: 'claude',
    menuMarker: MENU_MARKER,
    periodMs: 0,
    hooks: [{ at: 0, event: 'Stop', payload: claudePayload('Stop'), expect: 'idle' }],
    output: [{ at: 300, bytes: repaint('idle') }],
    menuAt: [],
  };
}

/** The stress case: ~48 KB/s of coloured lines and 10 hook events/s (prompt/stop alternating). */
function stressSession(): Session {
  const block = `\x1b[32mok\x1b[0m ${'x'.repeat(90)}\r\n`.repeat(50);
  return {
    kind: 'stress',
    source: 'claude',
    menuMarker: MENU_MARKER,
    periodMs: 1000,
    hooks: Array.from({ length: 10 }, (_, i) => {
      const event = i % 2 === 0 ? 'UserPromptSubmit' : 'Stop';
      return { at: i * 100, event, payload: claudePayload(event), expect: i % 2 === 0 ? 'working' : 'idle' };
    }),
    output: Array.from({ length: 10 }, (_, i) => ({ at: i * 100 + 50, bytes: block })),
    menuAt: [],
  };
}

/** The synthetic waiting session fires no PermissionRequest: it is its own screen-only twin. */
const withKind = (session: Session, kind: SessionKind): Session => ({ ...session, kind });

/**
 * The session of pane `index` of a kind: working and waiting panes cycle through the recordings
 * (Claude Code, Codex, Gemini CLI; synthetic Claude-shaped sessions without any).
 */
export const SESSIONS: Record<SessionKind, (index: number) => Session> = {
  working: (index) => recordedSession('working', { kind: 'working', index }) ?? workingSession(),
  waiting: (index) => recordedSession('waiting', { kind: 'waiting', index }) ?? waitingSession(),
  'waiting-screen': (index) =>
    recordedSession('waiting', { kind: 'waiting-screen', index, dropEvents: ['PermissionRequest'] }) ??
    withKind(waitingSession(), 'waiting-screen'),
  idle: () => idleSession(),
  stress: () => stressSession(),
};

/**
 * The fleet mix: about 20% working, 10% waiting on a human (half of them with hooks that report
 * the permission request, half seen on the screen alone), the rest idle.
 */
export function fleetMix(panes: number): SessionKind[] {
  const working = Math.round(panes * 0.2);
  const waiting = Math.round(panes * 0.1);
  return Array.from({ length: panes }, (_, i) => {
    if (i < working) return 'working';
    if (i < working + waiting) return (i - working) % 2 === 0 ? 'waiting' : 'waiting-screen';
    return 'idle';
  });
}
