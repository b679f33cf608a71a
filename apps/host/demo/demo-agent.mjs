#!/usr/bin/env node
// The bundled demo agent of `orca demo`: a small program that behaves like a hook-driven coding
// agent speaking Claude Code's hook dialect. It reads the hooks registered in
// `$HOME/.claude/settings.json` (written by @orca/hook-templates' installer), runs each matching
// command with `/bin/sh -c` and the event's JSON on stdin (so the generated hook script posts it
// through real curl), shows a composer, and before running its "tool" paints Claude's numbered
// permission menu and waits for `y`/`1` (allow) or `n`/`2` (deny).
//
// Env: ORCA_DEMO_ECHO_LOG — file receiving every byte read from the terminal (tests verify that a
// refused injection wrote nothing). ORCA_DEMO_PROMPT_LOG — file receiving one JSON line per user
// turn (the prompt as submitted: what a model server would see). ORCA_DEMO_TOOL — `always` (the
// default: every turn asks to run its tool), `never`, or `keyword:WORD` (only prompts holding
// WORD). ORCA_DEMO_REPLY_MS — how long a turn's reply takes (default 800). ORCA_DEMO_START_LOG — file
// receiving one JSON line per start ({argv, sessionId}); `--resume ID` continues session ID. Typing `/exit` + Enter
// quits with code 0. Bracketed paste is on: a pasted Enter is a newline in the draft, not a submit.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// Why: like Claude Code, `--resume ID` continues session ID (orca resume relaunches it that way).
const resumeAt = process.argv.indexOf('--resume');
const resumed = resumeAt >= 0 ? process.argv[resumeAt + 1] : undefined;
const sessionId = resumed ?? randomUUID();
const echoLog = process.env.ORCA_DEMO_ECHO_LOG;
const out = (text) => process.stdout.write(text);
const setTitle = (title) => out(`\x1b]0;${title}\x07`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long the demo agent takes to write its reply after the tool ran (ms). */
const REPLY_MS = Number(process.env.ORCA_DEMO_REPLY_MS) >= 0 ? Number(process.env.ORCA_DEMO_REPLY_MS) : 800;
const promptLog = process.env.ORCA_DEMO_PROMPT_LOG;
const toolMode = process.env.ORCA_DEMO_TOOL ?? 'always';
const wantsTool = (prompt) =>
  toolMode === 'always' || (toolMode.startsWith('keyword:') && prompt.includes(toolMode.slice('keyword:'.length)));

function readHooks() {
  try {
    const settings = JSON.parse(readFileSync(join(homedir(), '.claude', 'settings.json'), 'utf8'));
    return settings && typeof settings.hooks === 'object' && settings.hooks !== null ? settings.hooks : {};
  } catch {
    return {};
  }
}
const hooks = readHooks();

function matches(matcher, subject) {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (/^[A-Za-z0-9_|]+$/.test(matcher)) return matcher.split('|').includes(subject);
  try {
    return new RegExp(matcher).test(subject);
  } catch {
    return false;
  }
}

/** Runs every command registered for `event`, like Claude Code: `sh -c`, JSON on stdin. */
function fire(event, fields = {}, subject = '') {
  const payload = JSON.stringify({
    session_id: sessionId,
    transcript_path: '',
    cwd: process.cwd(),
    permission_mode: 'default',
    hook_event_name: event,
    ...fields,
  });
  for (const group of Array.isArray(hooks[event]) ? hooks[event] : []) {
    if (!matches(group.matcher, subject)) continue;
    for (const handler of Array.isArray(group.hooks) ? group.hooks : []) {
      if (handler.type !== 'command' || typeof handler.command !== 'string') continue;
      spawnSync('/bin/sh', ['-c', handler.command], {
        input: payload,
        stdio: ['pipe', 'ignore', 'ignore'],
        timeout: (Number(handler.timeout) || 10) * 1000,
      });
    }
  }
}

const MENU = [
  '',
  ' Bash command',
  '',
  '   npm test -- --verbose',
  '   Run the test suite verbosely',
  '',
  ' Do you want to proceed?',
  ' \u276f 1. Yes',
  '   2. No, and tell Claude what to do differently (esc)',
];

function composer() {
  setTitle('\u2733 Claude Code (orca demo)');
  out('\r\n\u276f ');
}

let line = '';
let pending = null; // resolve function while the permission menu waits
let pasting = false; // between ESC [200~ and ESC [201~

let turns = 0;
async function runTurn(prompt) {
  turns += 1;
  setTitle('\u2802 Claude Code (orca demo)');
  if (promptLog) appendFileSync(promptLog, `${JSON.stringify({ turn: turns, prompt, at: Date.now() })}\n`);
  fire('UserPromptSubmit', { prompt });
  out('\r\n\u23fa Thinking about it\u2026\r\n');
  await sleep(300);
  if (!wantsTool(prompt)) {
    await sleep(REPLY_MS);
    out('\u23fa Done: no tool was needed.\r\n');
    fire('Stop', { stop_hook_active: false });
    composer();
    return;
  }
  const toolUseId = `toolu_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const toolInput = { command: 'npm test -- --verbose', description: 'Run the test suite verbosely' };
  fire('PreToolUse', { tool_name: 'Bash', tool_input: toolInput, tool_use_id: toolUseId }, 'Bash');
  out(`${MENU.join('\r\n')}`);
  fire('PermissionRequest', { tool_name: 'Bash', tool_input: toolInput, tool_use_id: toolUseId }, 'Bash');
  const allowed = await new Promise((resolve) => {
    pending = resolve;
  });
  pending = null;
  // Erase the menu in place, as a TUI does.
  out(`\r\x1b[${MENU.length - 1}A\x1b[J`);
  if (allowed) {
    out('\u23fa Bash(npm test -- --verbose)\r\n  \u23bf  12 passing (40ms)\r\n');
    fire(
      'PostToolUse',
      {
        tool_name: 'Bash',
        tool_input: toolInput,
        tool_response: { stdout: '12 passing', exitCode: 0 },
        tool_use_id: toolUseId,
      },
      'Bash',
    );
    // Why: a real agent writes its reply after the tool; Stop right after PostToolUse would fold
    // the host's working verdict into idle on a loaded machine.
    await sleep(REPLY_MS);
    out('\u23fa All 12 tests pass with --verbose.\r\n');
  } else {
    out('\u23fa Okay, I will not run it.\r\n');
  }
  fire('Stop', { stop_hook_active: false });
  composer();
}

function onKey(ch) {
  if (pasting) {
    line += ch === '\r' || ch === '\n' ? '\n' : ch;
    out(ch === '\r' || ch === '\n' ? ' ' : ch);
    return;
  }
  if (pending) {
    if (ch === 'y' || ch === 'Y' || ch === '1' || ch === '\r') pending(true);
    else if (ch === 'n' || ch === 'N' || ch === '2' || ch === '\x1b') pending(false);
    return;
  }
  if (ch === '\r' || ch === '\n') {
    const prompt = line.trim();
    line = '';
    if (prompt === '/exit') {
      fire('SessionEnd', { reason: 'prompt_input_exit' });
      out('\r\nBye.\r\n');
      process.exit(0);
    }
    if (prompt.length > 0) void runTurn(prompt);
    else composer();
    return;
  }
  if (ch === '\x7f') {
    if (line.length > 0) {
      line = line.slice(0, -1);
      out('\b \b');
    }
    return;
  }
  if (ch === '\x03' || ch === '\x04') process.exit(130);
  if (ch >= ' ') {
    line += ch;
    out(ch);
  }
}

if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
process.stdin.on('data', (chunk) => {
  if (echoLog) appendFileSync(echoLog, chunk);
  for (let i = 0; i < chunk.length; ) {
    if (chunk.startsWith(PASTE_START, i)) {
      pasting = true;
      i += PASTE_START.length;
    } else if (chunk.startsWith(PASTE_END, i)) {
      pasting = false;
      i += PASTE_END.length;
    } else {
      const ch = String.fromCodePoint(chunk.codePointAt(i));
      onKey(ch);
      i += ch.length;
    }
  }
});

if (process.env.ORCA_DEMO_START_LOG) {
  appendFileSync(process.env.ORCA_DEMO_START_LOG, `${JSON.stringify({ argv: process.argv.slice(2), sessionId })}\n`);
}
out('\x1b[?2004h');
out('\x1b[1m Claude Code\x1b[0m (orca demo agent \u2014 no real model behind it)\r\n');
out(` cwd: ${process.cwd()}\r\n`);
if (resumed) out(` resumed session ${resumed}\r\n`);
fire('SessionStart', { source: resumed ? 'resume' : 'startup', model: 'demo' });
composer();
