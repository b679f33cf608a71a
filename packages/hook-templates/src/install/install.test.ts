import fc from 'fast-check';
import { parse as parseJsonc } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../agents/registry.ts';
import { AGENT_IDS, type AgentId } from '../agents/sources.ts';
import { HookTemplatesError } from '../errors.ts';
import { launcherCommand } from '../launchers/for-agent.ts';
import { claudeGate } from './claude-gate.ts';
import { applyCodexTrust, readCodexTrust } from './codex-trust.ts';
import { isManagedHandler } from './hooks-edit.ts';
import { agentStatus, type InstallInput, installAgent, uninstallAgent } from './install.ts';
import { configPath } from './paths.ts';

const HOME = '/home/u';
/** Agents whose hooks live in a config file (opencode's plugin file has tests of its own). */
const CONFIG_AGENTS = AGENT_IDS.filter((a) => AGENTS[a].configShape !== 'opencode-plugin');
const base = (agent: AgentId, text: string | null, extra: Partial<InstallInput> = {}): InstallInput => ({
  agent,
  os: 'posix',
  home: HOME,
  configs: { [configPath(AGENTS[agent], 'posix', HOME)]: text },
  ...extra,
});
const configOf = (agent: AgentId, r: ReturnType<typeof installAgent>) =>
  r.files.find((f) => f.path === configPath(AGENTS[agent], 'posix', HOME));
const parse = (agent: AgentId, text: string) =>
  AGENTS[agent].configShape === 'devin' ? parseJsonc(text) : JSON.parse(text);
const container = (agent: AgentId, root: Record<string, unknown>) =>
  (AGENTS[agent].configShape === 'antigravity' ? root['orca-status'] : root.hooks) as Record<string, unknown[]>;

/** A user handler in the agent's own shape (never managed). */
function userEntry(agent: AgentId, n: number): unknown {
  const command = `echo user-${n}`;
  switch (AGENTS[agent].configShape) {
    case 'cursor':
      return { command, timeout: 3 };
    case 'copilot':
      return { type: 'command', bash: command, timeoutSec: 3 };
    case 'antigravity':
      return { type: 'command', command, timeout: 3 };
    default:
      return { matcher: 'Bash', hooks: [{ type: 'command', command, timeout: 3 }] };
  }
}

function withUser(agent: AgentId, events: Record<string, number[]>): string {
  const hooks: Record<string, unknown[]> = {};
  for (const [e, ns] of Object.entries(events)) hooks[e] = ns.map((n) => userEntry(agent, n));
  const root =
    AGENTS[agent].configShape === 'antigravity'
      ? { 'orca-status': hooks, other: { keep: true } }
      : { theme: 'dark', hooks };
  return `${JSON.stringify(root, null, 2)}\n`;
}

function userHandlers(agent: AgentId, text: string): Record<string, string[]> {
  const c = container(agent, parse(agent, text)) ?? {};
  const out: Record<string, string[]> = {};
  for (const [e, entries] of Object.entries(c)) {
    const cmds: string[] = [];
    for (const entry of entries) {
      const hs = (entry as { hooks?: unknown[] }).hooks ?? [entry];
      for (const h of hs) if (!isManagedHandler(h)) cmds.push(JSON.stringify(h));
    }
    if (cmds.length) out[e] = cmds;
  }
  return out;
}

describe('installAgent fixtures', () => {
  const oldForms = (agent: AgentId) => {
    const win = launcherCommand({
      agent,
      platform: 'windows',
      script: `C:\\Users\\u\\.orca\\agent-hooks\\${AGENTS[agent].scriptStem}-hook.cmd`,
      form: 'encodedPowerShell',
    }).command;
    const stale = (cmd: string) => userEntryWith(agent, cmd);
    const userEntryWith = (a: AgentId, command: string) => {
      const e = userEntry(a, 0) as Record<string, unknown>;
      if ('hooks' in e) return { hooks: [{ type: 'command', command, timeout: 1 }] };
      return AGENTS[a].configShape === 'copilot' ? { type: 'command', powershell: command } : { ...e, command };
    };
    const ev = AGENTS[agent].events[0] ?? 'Stop';
    const hooks = {
      [ev]: [userEntry(agent, 1), stale(`/old/place/agent-hooks/${AGENTS[agent].scriptStem}-hook.sh`), stale(win)],
      RetiredEvent: [stale(`C:\\Users\\u\\.orca\\agent-hooks\\${AGENTS[agent].scriptStem}-hook.cmd`)],
    };
    const root = AGENTS[agent].configShape === 'antigravity' ? { 'orca-status': hooks } : { hooks };
    return JSON.stringify(root, null, 2);
  };
  const inputs: Record<string, (a: AgentId) => string | null> = {
    absent: () => null,
    empty: () => '{}',
    user: (a) => withUser(a, { [AGENTS[a].events[0] ?? 'Stop']: [1, 2], Custom: [3] }),
    'old-managed': oldForms,
  };
  for (const agent of CONFIG_AGENTS) {
    for (const [name, make] of Object.entries(inputs)) {
      it(`${agent} × ${name}`, async () => {
        const input = make(agent);
        const r = installAgent(base(agent, input, agent === 'claude' ? { agentVersion: '2.1.300' } : {}));
        const out = configOf(agent, r)?.content ?? '';
        await expect(out).toMatchFileSnapshot(
          `../../fixtures/install/${agent}/${name}.expected${agent === 'devin' ? '.jsonc' : '.json'}`,
        );
        if (input !== null)
          await expect(input).toMatchFileSnapshot(`../../fixtures/install/${agent}/${name}.input.json`);
        expect(r.state).toBe('installed');
        const again = installAgent(base(agent, out, agent === 'claude' ? { agentVersion: '2.1.300' } : {}));
        expect(configOf(agent, again)?.action).toBe('unchanged');
        expect(JSON.stringify(userHandlers(agent, out))).not.toContain('agent-hooks');
      });
    }
    it(`${agent} × unparseable / wrong shape refuse with their codes`, () => {
      const code = (text: string) => {
        try {
          installAgent(base(agent, text));
          return 'none';
        } catch (e) {
          return e instanceof HookTemplatesError ? e.code : 'other';
        }
      };
      expect([
        code('{"hooks": '),
        code('[1,2]'),
        code(agent === 'antigravity' ? '{"orca-status": 5}' : '{"hooks": []}'),
      ]).toEqual(['ORCA_HOOKS_CONFIG_UNPARSEABLE', 'ORCA_HOOKS_CONFIG_SHAPE', 'ORCA_HOOKS_CONFIG_SHAPE']);
      expect(agentStatus(base(agent, '{"hooks": '))).toBe('error');
    });
  }
});

describe('install, then uninstall, on a config holding third-party hooks', () => {
  // Why: these shapes own a key of their own (Codex's file is exactly {hooks}; Cursor and Copilot
  // need `version`), so their round trip is checked key by key in the fixtures above instead.
  const OWN_KEYS = new Set(['codex', 'cursor', 'copilot']);
  for (const agent of CONFIG_AGENTS.filter((a) => !OWN_KEYS.has(AGENTS[a].configShape))) {
    it(`${agent}: gives the file back byte-identical`, () => {
      const input = withUser(agent, { [AGENTS[agent].events[0] ?? 'Stop']: [1, 2], Custom: [3] });
      const installed = configOf(agent, installAgent(base(agent, input, { agentVersion: '2.1.300' })))?.content ?? '';
      expect(installed).toContain('agent-hooks');
      const removed = uninstallAgent(base(agent, installed)).files[0]?.content;
      expect(removed).toBe(input);
    });
  }
});

describe('installer properties', () => {
  const eventsArb = (agent: AgentId) =>
    fc.dictionary(fc.constantFrom(...AGENTS[agent].events, 'UserCustom'), fc.array(fc.nat(50), { maxLength: 3 }), {
      maxKeys: 4,
    });
  for (const agent of CONFIG_AGENTS) {
    it(`${agent}: idempotent, user handlers kept in order, uninstall ∘ install keeps them`, () => {
      fc.assert(
        fc.property(eventsArb(agent), (events) => {
          const input = withUser(agent, events);
          const first = configOf(agent, installAgent(base(agent, input)))?.content ?? '';
          const second = installAgent(base(agent, first));
          expect(configOf(agent, second)?.content).toBe(first);
          expect(second.files.every((f) => f.action !== 'update')).toBe(true);
          expect(userHandlers(agent, first)).toEqual(userHandlers(agent, input));
          const removed = uninstallAgent(base(agent, first)).files[0]?.content ?? '';
          expect(userHandlers(agent, removed)).toEqual(userHandlers(agent, input));
          expect(removed).not.toContain('agent-hooks');
        }),
        { numRuns: 25 },
      );
    });
  }

  it('Devin JSONC: comments and untouched bytes are kept', () => {
    const text =
      '// my devin config\n{\n  /* theme */ "theme": "dark", // trailing\n  "hooks": {\n    // keep me\n    "Custom": [{ "hooks": [{ "type": "command", "command": "echo u" }] }]\n  },\n}\n';
    const out = configOf('devin', installAgent(base('devin', text)))?.content ?? '';
    for (const c of ['// my devin config', '/* theme */ "theme": "dark", // trailing', '// keep me'])
      expect(out).toContain(c);
    expect(configOf('devin', installAgent(base('devin', out)))?.action).toBe('unchanged');
    expect(uninstallAgent(base('devin', out)).files[0]?.content).toContain('// keep me');
  });

  it('Codex hooks.json is exactly {hooks}; trust keys cover managed handlers only', () => {
    const r = installAgent(
      base('codex', '{"other": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo u"}]}]}}'),
    );
    const root = JSON.parse(configOf('codex', r)?.content ?? '');
    expect(Object.keys(root)).toEqual(['hooks']);
    expect(r.codexTrustKeys?.length).toBe(AGENTS.codex.events.length);
    expect(r.codexTrustKeys?.find((k) => k.event === 'Stop')?.key).toBe(`${HOME}/.codex/hooks.json:stop:1:0`);
    expect(installAgent(base('codex', null, { agentVersion: '0.128.0' })).codexTrustKeys).toBeUndefined();
  });

  it('Codex trust round-trip: set, read back, unchanged re-apply keeps the text (comments too)', () => {
    const toml = '# mine\nmodel = "x"\n';
    const entries = [{ key: '/h/.codex/hooks.json:stop:0:0', hash: 'abc' }];
    const once = applyCodexTrust(toml, entries);
    expect(readCodexTrust(once, ['/h/.codex/hooks.json:stop:0:0'])).toEqual({
      '/h/.codex/hooks.json:stop:0:0': 'sha256:abc',
    });
    const commented = `# keep\n${once}`;
    expect(applyCodexTrust(commented, entries)).toBe(commented);
    expect(
      readCodexTrust(applyCodexTrust(commented, [{ key: entries[0]?.key ?? '', hash: 'def' }]), [
        entries[0]?.key ?? '',
      ]),
    ).toEqual({
      [entries[0]?.key ?? '']: 'sha256:def',
    });
    expect(() => applyCodexTrust('a = = 1', entries)).toThrow(HookTemplatesError);
  });

  it('Claude gate: known versions get what they know (and retire ours they lack); unknown keeps others', () => {
    expect(claudeGate(AGENTS.claude.events, '1.0.30').events).toEqual(['PreToolUse', 'PostToolUse']);
    expect(claudeGate(AGENTS.claude.events, '2.1.300').events).toEqual([...AGENTS.claude.events]);
    expect(claudeGate(AGENTS.claude.events, '2.1.100').events).not.toContain('SessionEnd');
    const full = configOf('claude', installAgent(base('claude', null, { agentVersion: '2.1.300' })))?.content ?? '';
    const old = JSON.parse(
      configOf('claude', installAgent(base('claude', full, { agentVersion: '1.0.30' })))?.content ?? '',
    );
    expect(Object.keys(old.hooks).sort()).toEqual(['PostToolUse', 'PreToolUse']);
    const unknown = JSON.parse(configOf('claude', installAgent(base('claude', full)))?.content ?? '');
    expect(Object.keys(unknown.hooks).length).toBe(AGENTS.claude.events.length);
    expect(unknown.statusLine).toBeUndefined();
    const withStatus = JSON.parse(
      configOf('claude', installAgent(base('claude', '{"statusLine":{"type":"command","command":"x"}}')))?.content ??
        '',
    );
    expect(withStatus.statusLine).toEqual({ type: 'command', command: 'x' });
  });

  it('agentStatus: installed, partial (some events or disabled), not_installed, opted_out', () => {
    const gemini = configOf('gemini', installAgent(base('gemini', null)))?.content ?? '';
    expect(agentStatus(base('gemini', gemini))).toBe('installed');
    expect(
      agentStatus(base('gemini', JSON.stringify({ ...JSON.parse(gemini), hooksConfig: { enabled: false } }))),
    ).toBe('partial');
    const partial = JSON.parse(gemini);
    delete partial.hooks.AfterTool;
    expect(agentStatus(base('gemini', JSON.stringify(partial)))).toBe('partial');
    expect(agentStatus(base('gemini', '{}'))).toBe('not_installed');
    expect(agentStatus(base('grok', ''))).toBe('opted_out');
    expect(installAgent(base('grok', '')).files).toEqual([]);
    const droid = configOf('droid', installAgent(base('droid', '{"hooksDisabled": true}')))?.content ?? '';
    expect(agentStatus(base('droid', droid))).toBe('partial');
    const copilot = JSON.parse(
      configOf('copilot', installAgent(base('copilot', '{"disableAllHooks": true, "version": 3}')))?.content ?? '',
    );
    expect([copilot.disableAllHooks, copilot.version]).toEqual([undefined, 1]);
  });

  it('env overrides move configs; Windows installs write wrappers and encoded or fast-path commands', () => {
    const r = installAgent({ agent: 'claude', os: 'posix', home: HOME, env: { CLAUDE_CONFIG_DIR: '/c' }, configs: {} });
    expect(Object.keys(r.expected)).toEqual(['/c/settings.json']);
    const w = installAgent({ agent: 'antigravity', os: 'windows', home: 'C:\\Users\\u', configs: {} });
    expect(w.files.map((f) => f.path.split('\\').at(-1))).toEqual([
      'antigravity-hook.cmd',
      'antigravity-pre-invocation.cmd',
      'antigravity-post-invocation.cmd',
      'antigravity-stop.cmd',
      'antigravity-pre-tool-use.cmd',
      'antigravity-post-tool-use.cmd',
      'hooks.json',
    ]);
    const cmds = JSON.stringify(JSON.parse(w.files.at(-1)?.content ?? ''));
    expect(cmds).toContain('C:\\\\Users\\\\u\\\\.orca\\\\agent-hooks\\\\antigravity-stop.cmd');
    const claudeWin = installAgent({
      agent: 'claude',
      os: 'windows',
      home: 'C:\\Users\\u',
      configs: {},
      gitBash: true,
      agentVersion: '2.1.300',
    });
    const settings = JSON.parse(claudeWin.files.at(-1)?.content ?? '');
    expect(settings.hooks.Stop[0].hooks[0]).toEqual({
      type: 'command',
      command: '"C:/Users/u/.orca/agent-hooks/claude-hook.cmd"',
      timeout: 2,
    });
  });
});
