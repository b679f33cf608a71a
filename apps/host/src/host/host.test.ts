import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PERMISSION_DIALOG_DRAW_GRACE_MS } from '@orca/agent-status/limits';
import { afterEach, describe, expect, it } from 'vitest';
import { installHooks } from '../agent-hooks/install-hooks.ts';
import type { HostError } from '../errors.ts';
import { silentLogger } from '../runtime/logger.ts';
import { openStore } from '../store/store.ts';
import { createHost, type Host, type VerdictChange } from './host.ts';

const hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop().catch(() => undefined);
});

async function startHost(dataDir: string, screenWorkers?: number): Promise<Host> {
  const host = await createHost({
    dataDir,
    logger: silentLogger(),
    home: mkdtempSync(join(tmpdir(), 'orca-home-')),
    ...(screenWorkers !== undefined ? { screenWorkers } : {}),
  });
  hosts.push(host);
  return host;
}

/** A pane command that posts one Claude-dialect hook event with real curl, using only its env. */
function curlHook(event: string): string {
  const payload = JSON.stringify({ hook_event_name: event, session_id: 's1' });
  return [
    `printf '%s' '${payload}' | curl -sS -f -X POST "http://127.0.0.1:$ORCA_AGENT_HOOK_PORT/hook/claude"`,
    `-H "X-Orca-Agent-Hook-Token: $ORCA_AGENT_HOOK_TOKEN" -H 'Content-Type: application/x-www-form-urlencoded'`,
    `--data-urlencode "paneKey=$ORCA_PANE_KEY" --data-urlencode "tabId=$ORCA_TAB_ID" --data-urlencode 'payload@-'`,
  ].join(' ');
}

function nextVerdict(host: Host, handle: string, pred: (c: VerdictChange) => boolean): Promise<VerdictChange> {
  return new Promise((resolve) => {
    const off = host.onVerdict((c) => {
      if (c.handle === handle && pred(c)) {
        off();
        resolve(c);
      }
    });
  });
}

describe('host', () => {
  it('writes the endpoint files, refuses a second host on the same data dir', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-host-')), 'data');
    const host = await startHost(dataDir);
    const env = readFileSync(host.paths.endpointEnv, 'utf8');
    expect(env).toBe(
      `ORCA_AGENT_HOOK_PORT=${host.endpoint.port}\nORCA_AGENT_HOOK_TOKEN=${host.endpoint.token}\nORCA_AGENT_HOOK_ENV=local\nORCA_AGENT_HOOK_VERSION=${host.endpoint.version}\nORCA_AGENT_HOOK_TRANSPORT=raw-json-v1\n`,
    );
    expect(host.endpoint.token).toMatch(/^[0-9a-f]{32}$/);
    expect(statSync(host.paths.endpointEnv).mode & 0o777).toBe(0o600);
    let caught: unknown;
    try {
      await createHost({ dataDir, logger: silentLogger() });
    } catch (error) {
      caught = error;
    }
    expect((caught as HostError).code).toBe('ORCA_HOST_ALREADY_RUNNING');
  });

  it('turns a real hook POST from inside a pane into a stored verdict that survives a restart', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-host-')), 'data');
    const host = await startHost(dataDir);
    const pane = await host.createPane({
      argv: ['/bin/sh', '-c', `${curlHook('UserPromptSubmit')}; exec node -e 'setTimeout(()=>{}, 60000)'`],
      cwd: '/',
    });
    const working = await nextVerdict(host, pane.handle, (c) => c.verdict.status === 'working');
    expect(working.verdict).toEqual({ status: 'working', isRunningAgent: true, agentWait: null });
    const shown = host.showPane(pane.handle);
    expect(shown).toMatchObject({ handle: pane.handle, status: 'working', isRunningAgent: true, agentWait: null });
    expect(host.store.hookRows(pane.paneKey)).toMatchObject([
      { connectionId: 'local', source: 'claude', hookEventName: 'UserPromptSubmit', row: { state: 'working' } },
    ]);
    await hosts.splice(0)[0]?.stop();

    const again = await startHost(dataDir);
    expect(again.store.hookRows(pane.paneKey)).toHaveLength(1);
    expect(again.showPane(pane.handle)).toMatchObject({
      status: 'working',
      agentWait: null,
      exited: { cause: 'host-restart' },
    });
    expect(readFileSync(again.paths.endpointEnv, 'utf8')).toContain(`ORCA_AGENT_HOOK_TOKEN=${again.endpoint.token}`);
    expect(again.endpoint.token).not.toBe(host.endpoint.token);
  });

  it('refuses a negative or fractional screenWorkers with ORCA_HOST_USAGE before claiming the data dir', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-host-')), 'data');
    for (const screenWorkers of [-1, 1.5]) {
      await expect(createHost({ dataDir, logger: silentLogger(), screenWorkers })).rejects.toMatchObject({
        code: 'ORCA_HOST_USAGE',
      });
    }
    await startHost(dataDir, 0);
  });

  it('a permission request whose dialog never shows holds for the draw grace, then heals with no further output', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-host-')), 'data');
    const host = await startHost(dataDir);
    const pane = await host.createPane({
      argv: [
        '/bin/sh',
        '-c',
        // Why: the hooks post from the background once node (not a shell) is in front.
        `printf 'working on it\\r\\n'; (sleep 0.3; ${curlHook('UserPromptSubmit')}; ${curlHook('PermissionRequest')}) & exec node -e 'setTimeout(()=>{}, 60000)'`,
      ],
      cwd: '/',
    });
    const asked = await nextVerdict(host, pane.handle, (c) => c.verdict.status === 'permission');
    // Why: healing never promotes the older working row (engine §7), so the pane leaves permission for null.
    const healed = await nextVerdict(host, pane.handle, (c) => c.verdict.status !== 'permission');
    expect(asked.verdict).toMatchObject({ isRunningAgent: true, agentWait: { source: 'hook' } });
    expect(healed.at - asked.at).toBeGreaterThanOrEqual(PERMISSION_DIALOG_DRAW_GRACE_MS - 500);
  });

  it('refuses an unknown handle with terminal_handle_stale', async () => {
    const host = await startHost(join(mkdtempSync(join(tmpdir(), 'orca-host-')), 'data'));
    expect(() => host.showPane('pane-nope')).toThrow(expect.objectContaining({ code: 'terminal_handle_stale' }));
    expect(() => host.send('pane-nope', 'x')).toThrow(expect.objectContaining({ code: 'terminal_handle_stale' }));
  });
});

describe('dispatch --inject', () => {
  it('runs beforeSubmitPrompt command hooks: a blocking hook refuses with hook_blocked and writes zero bytes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-inject-'));
    const host = await startHost(join(root, 'data'));
    const project = join(root, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    const log = join(root, 'stdin.log');
    writeFileSync(log, '');
    // Why: like a real agent, it fires its UserPromptSubmit hook when Enter submits (dispatch proves delivery by it).
    const agent = `process.stdout.write('ready> '); process.stdin.setRawMode(true); process.stdin.on('data', (d) => { require('fs').appendFileSync(${JSON.stringify(log)}, d); if (String(d).includes('\\r')) require('child_process').execSync(process.env.PROMPT_HOOK); }); setTimeout(() => {}, 60000)`;
    const pane = await host.createPane({
      argv: ['/bin/sh', '-c', `${curlHook('Stop')}; exec node -e "$AGENT"`],
      cwd: project,
      env: { AGENT: agent, PROMPT_HOOK: curlHook('UserPromptSubmit') },
    });
    await nextVerdict(host, pane.handle, (c) => c.verdict.status === 'idle');
    // Why: the agent sets raw mode right after printing its prompt; input before that would be cooked.
    for (let i = 0; i < 200 && !host.showPane(pane.handle).tail?.includes('ready>'); i += 1) {
      await new Promise((r) => setTimeout(r, 20));
    }
    writeFileSync(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "prompts are frozen" >&2; exit 2' }] }],
        },
      }),
    );
    await expect(host.dispatchInject(pane.handle, 'do it')).rejects.toMatchObject({
      code: 'hook_blocked',
      message: 'prompts are frozen',
    });
    expect(host.store.countCommandHookRuns()).toBe(1);
    writeFileSync(join(project, '.claude', 'settings.json'), '{}');
    const receipt = await host.dispatchInject(pane.handle, 'do it');
    expect(receipt).toMatchObject({ bytes: 6, submittedBy: 'hook', submitKeys: 1 });
    expect(receipt.stages.map((st) => st.stage).slice(0, 3)).toEqual(['ready', 'input_written', 'submitted']);
    // Why: the text and the submit key are two writes (the key waits for the draft and the paste window).
    for (let i = 0; i < 100 && readFileSync(log, 'utf8') !== 'do it\r'; i += 1)
      await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(log, 'utf8')).toBe('do it\r');
  });
});

describe('dispatch recovers a submit key the agent swallowed, never the text', () => {
  it('a draft left in the composer gets one more submit key; the prompt arrives once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-inject-retry-'));
    const host = await startHost(join(root, 'data'));
    const log = join(root, 'prompts.log');
    writeFileSync(log, '');
    // An agent that echoes its draft under a `› ` composer and, like a TUI mid-paste, takes the
    // first Enter as a newline; the second submits: the draft leaves and the prompt hook fires.
    const script = join(root, 'agent.cjs');
    writeFileSync(
      script,
      String.raw`const fs = require('fs');
let draft = '';
let enters = 0;
const paint = () => process.stdout.write('\x1b[2J\x1b[H› ' + draft.replace(/\n/g, ' ') + '\r\n  status line\r\n');
paint();
process.stdin.setRawMode(true);
process.stdin.on('data', (d) => {
  for (const c of String(d)) {
    if (c !== '\r') { draft += c; continue; }
    if (++enters === 1) { draft += '\n'; continue; }
    fs.appendFileSync(process.env.PROMPT_LOG, draft.trim() + '\n');
    draft = '';
    require('child_process').execSync(process.env.PROMPT_HOOK);
  }
  paint();
});
setTimeout(() => {}, 60000);
`,
    );
    const pane = await host.createPane({
      argv: ['/bin/sh', '-c', `${curlHook('Stop')}; exec node "$SCRIPT"`],
      cwd: root,
      env: { SCRIPT: script, PROMPT_LOG: log, PROMPT_HOOK: curlHook('UserPromptSubmit') },
    });
    await nextVerdict(host, pane.handle, (c) => c.verdict.status === 'idle');
    for (let i = 0; i < 200 && !host.showPane(pane.handle).tail?.includes('status line'); i += 1) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const receipt = await host.dispatchInject(pane.handle, 'fix the tests');
    expect(receipt).toMatchObject({ submittedBy: 'hook', submitKeys: 2, bytes: 'fix the tests'.length + 2 });
    for (let i = 0; i < 100 && readFileSync(log, 'utf8') === ''; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(log, 'utf8')).toBe('fix the tests\n');
  });

  it('a prompt the agent never takes is refused with prompt_not_submitted naming the last stage', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-inject-lost-'));
    const host = await startHost(join(root, 'data'));
    const agent =
      "process.stdout.write('› '); process.stdin.setRawMode(true); process.stdin.on('data', () => {}); setTimeout(() => {}, 60000)";
    const pane = await host.createPane({
      argv: ['/bin/sh', '-c', `${curlHook('Stop')}; exec node -e "$AGENT"`],
      cwd: root,
      env: { AGENT: agent },
    });
    await nextVerdict(host, pane.handle, (c) => c.verdict.status === 'idle');
    await expect(host.dispatchInject(pane.handle, 'lost prompt', { timeoutMs: 4_000 })).rejects.toMatchObject({
      code: 'prompt_not_submitted',
      message: expect.stringMatching(/last stage input_written/),
    });
  });
});

describe('dispatch fails closed at an unnamed menu', () => {
  it.each([
    ['screen workers (the default)', undefined],
    ['the emulator in the host thread (screenWorkers 0)', 0],
  ])(
    'a menu-shaped block no rule names refuses with agent_prompt_blocked and writes zero bytes: %s',
    async (_, workers) => {
      const root = mkdtempSync(join(tmpdir(), 'orca-inject-menu-'));
      const host = await startHost(join(root, 'data'), workers);
      const log = join(root, 'stdin.log');
      writeFileSync(log, '');
      // An agent (idle by its hook) that paints a picker no rule of the engine knows, then reads keys.
      const agent = `process.stdout.write('Pick a colour scheme\\r\\n\\u276f 1. Dark\\r\\n  2. Light\\r\\n  3. Auto\\r\\n'); process.stdin.setRawMode(true); process.stdin.on('data', (d) => require('fs').appendFileSync(${JSON.stringify(log)}, d)); setTimeout(() => {}, 60000)`;
      const pane = await host.createPane({
        argv: ['/bin/sh', '-c', `${curlHook('Stop')}; exec node -e "$AGENT"`],
        cwd: root,
        env: { AGENT: agent },
      });
      await nextVerdict(host, pane.handle, (c) => c.verdict.status === 'idle');
      for (let i = 0; i < 200 && !host.showPane(pane.handle).tail?.includes('3. Auto'); i += 1) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(host.showPane(pane.handle).status).toBe('idle');
      await expect(host.dispatchInject(pane.handle, 'hello')).rejects.toMatchObject({ code: 'agent_prompt_blocked' });
      await new Promise((r) => setTimeout(r, 300));
      expect(readFileSync(log, 'utf8')).toBe('');
    },
  );
});

describe('restart coordination', () => {
  it('ingests spooled events at start (keeping their time) and truncates the spool', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-spool-')), 'data');
    mkdirSync(join(dataDir, 'agent-hooks', 'spool'), { recursive: true });
    const paneKey = 'tab1:1b4e28ba-2fa1-41d2-883f-0016d3cca427';
    const line = {
      paneKey,
      tabId: 'tab1',
      env: 'local',
      version: '2',
      source: 'claude',
      receivedAt: 1_700_000_000_000,
      payload: JSON.stringify({ hook_event_name: 'Stop' }),
    };
    const spool = join(dataDir, 'agent-hooks', 'spool', 'pane-x.jsonl');
    writeFileSync(spool, `${JSON.stringify(line)}\nnot json\n`);
    // Why: rows are kept only for panes the host knows; this one is listed from an earlier run.
    const earlier = openStore(join(dataDir, 'orca.sqlite'));
    earlier.insertPane({
      handle: 'pane-x',
      paneKey,
      tabId: 'tab1',
      name: null,
      cwd: '/',
      argv: ['sh'],
      guest: null,
      agent: null,
      createdAt: 1,
    });
    earlier.close();
    const host = await startHost(dataDir);
    expect(host.store.hookRows(paneKey)).toMatchObject([
      { connectionId: 'local', source: 'claude', hookEventName: 'Stop', receivedAt: 1_700_000_000_000 },
    ]);
    expect(readFileSync(spool, 'utf8')).toBe('');
  });

  it('a hook client holding the old port and token re-coordinates through the endpoint file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-recoord-'));
    const dataDir = join(root, 'data');
    const home = join(root, 'home');
    await installHooks({ home, agents: ['claude'] });
    const first = await startHost(dataDir);
    const stale = { port: first.endpoint.port, token: first.endpoint.token };
    await hosts.splice(0)[0]?.stop();
    const second = await startHost(dataDir);
    const pane = await second.createPane({ argv: ['/bin/sleep', '60'], cwd: '/' });
    // Why: async spawn — the host answering the POST runs in this process's event loop.
    const child = spawn('/bin/sh', [join(home, '.orca', 'agent-hooks', 'claude-hook.sh')], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ORCA_AGENT_HOOK_PORT: String(stale.port),
        ORCA_AGENT_HOOK_TOKEN: stale.token,
        ORCA_AGENT_HOOK_ENDPOINT: second.paths.endpointEnv,
        ORCA_PANE_KEY: pane.paneKey,
      },
    });
    child.stdin.end(JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's' }));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    expect(second.store.hookRows(pane.paneKey)).toMatchObject([
      { connectionId: 'local', hookEventName: 'UserPromptSubmit' },
    ]);
  });
});
