import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/fixtures.ts';
import { AGENT_IDS } from '../agents/sources.ts';
import { emitScript } from '../emit/script.ts';
import { nodeInstallIo } from '../install/node-io.ts';
import { planFor } from '../plan/plan-for.ts';
import { nodeVerifyIo } from '../verify/node-io.ts';
import type { VersionProbe } from '../versions/agent-version.ts';
import { runCli } from './program.ts';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return cliWith({}, ...argv);
}

async function cliWith(
  extra: { versionProbe?: VersionProbe },
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    ...extra,
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    install: nodeInstallIo,
    verify: nodeVerifyIo,
    homedir: '/nonexistent-home-for-tests',
    env: {},
  });
  return { code, out, err };
}

const pkgRoot = fileURLToPath(new URL('../..', import.meta.url));
const tsx = join(pkgRoot, '../../node_modules/.bin/tsx');

describe('orca-hooks CLI', () => {
  it('usage errors exit 2 with a clear message', async () => {
    const cases = [
      ['emit', 'nope', '--platform', 'posix'],
      ['emit', 'codex', '--platform', 'vms'],
      ['emit', 'codex'],
      ['launcher', 'codex', '--platform', 'posix'],
      ['install', '--agents', 'codex,nope', '--home', tempDir()],
      ['frobnicate'],
      ['verify', '--shells', 'fish', '--home', tempDir()],
    ];
    for (const argv of cases) {
      const r = await cli(...argv);
      expect({ argv, code: r.code, hasMessage: r.err.length > 0, out: r.out }).toEqual({
        argv,
        code: 2,
        hasMessage: true,
        out: '',
      });
    }
    expect((await cli('emit', 'nope', '--platform', 'posix')).err).toContain('ORCA_HOOKS_UNKNOWN_AGENT');
  });

  it('the real bin process exits 2 on an unknown agent and 0 with --version', async () => {
    const run = (args: string[]) =>
      new Promise<number | null>((resolve) => {
        const child = execFile(tsx, [join(pkgRoot, 'src/cli.ts'), ...args], () => undefined);
        child.on('close', (code) => resolve(code));
      });
    expect([await run(['emit', 'nope', '--platform', 'posix']), await run(['--version'])]).toEqual([2, 0]);
  });

  it('list --json has one row per agent', async () => {
    const r = await cli('list', '--json');
    const rows = JSON.parse(r.out) as {
      agent: string;
      source: string;
      stdout: string;
      targets: string[];
      events: string[];
      config: string;
    }[];
    expect(rows.map((x) => x.agent)).toEqual([...AGENT_IDS]);
    expect(rows.find((x) => x.agent === 'openclaude')).toMatchObject({
      source: 'claude',
      stdout: '{}',
      config: '~/.openclaude/settings.json',
    });
    expect(rows.find((x) => x.agent === 'cursor')?.stdout).toBe('per-event');
    expect(rows.find((x) => x.agent === 'copilot')?.targets).toEqual(['posix/sh', 'windows/pwsh']);
  });

  it('emit prints the script byte-exact; launcher --json names form and event', async () => {
    for (const [platform, target] of [
      ['posix', { os: 'posix', dialect: 'sh' }],
      ['batch', { os: 'windows', dialect: 'batch' }],
      ['pwsh', { os: 'windows', dialect: 'pwsh' }],
    ] as const) {
      expect((await cli('emit', 'grok', '--platform', platform)).out).toBe(emitScript(planFor('grok', target)));
    }
    const l = JSON.parse(
      (
        await cli(
          'launcher',
          'cursor',
          '--platform',
          'posix',
          '--script',
          '/x/cursor-hook.sh',
          '--event',
          'preToolUse',
          '--json',
        )
      ).out,
    );
    expect({ form: l.form, event: l.event }).toEqual({ form: 'posixGuarded', event: 'preToolUse' });
    expect(l.command).toContain(`ORCA_CURSOR_HOOK_RESPONSE='{"permission":"allow"}'`);
  });

  it('install --dry-run writes nothing; install then re-install is all unchanged', async () => {
    const home = tempDir();
    const dry = await cli('install', '--home', home, '--dry-run', '--json');
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out).dryRun).toBe(true);
    expect(readdirSync(home)).toEqual([]);
    const first = await cli('install', '--home', home);
    expect(first.code).toBe(0);
    expect(
      first.out
        .split('\n')
        .filter((l) => /^(create|update|unchanged|refused) /.test(l))
        .every((l) => l.startsWith('create ')),
    ).toBe(true);
    const again = await cli('install', '--home', home);
    const lines = again.out.split('\n').filter((l) => /^(create|update|unchanged|refused) /.test(l));
    // a script and a config per agent, plus Codex's config.toml holding the trust of its hooks
    expect(lines.length).toBe(AGENT_IDS.length * 2 + 1);
    expect(lines.every((l) => l.startsWith('unchanged '))).toBe(true);
    const broken = join(home, '.gemini', 'settings.json');
    writeFileSync(broken, '{ nope');
    const refused = await cli('install', '--home', home, '--agents', 'gemini');
    expect({ code: refused.code, out: refused.out.trim() }).toEqual({
      code: 1,
      out: `refused ${broken} ORCA_HOOKS_CONFIG_UNPARSEABLE`,
    });
    const un = await cli('uninstall', '--home', home, '--agents', 'codex');
    expect(un.code).toBe(0);
    expect(readFileSync(join(home, '.codex', 'hooks.json'), 'utf8')).toBe('{\n  "hooks": {}\n}\n');
    expect(existsSync(join(home, '.orca', 'agent-hooks', 'codex-hook.sh'))).toBe(false);
  });

  it('install asks each agent on PATH for its version, prints it and installs what that version knows', async () => {
    const home = tempDir();
    const asked: string[] = [];
    const versionProbe: VersionProbe = async (argv) => {
      asked.push(argv.join(' '));
      return argv[0] === 'claude' ? '2.1.332 (Claude Code)\n' : argv[0] === 'codex' ? 'codex-cli 0.128.0\n' : null;
    };
    const r = await cliWith({ versionProbe }, 'install', '--home', home, '--agents', 'claude,codex,gemini');
    expect(r.code).toBe(0);
    expect(asked).toEqual(['claude --version', 'codex --version', 'gemini --version']);
    expect(r.out).toContain('# claude 2.1.332 (from claude --version)\n');
    expect(r.out).toContain('# codex 0.128.0 (from codex --version)\n');
    expect(r.out).not.toContain('# gemini');
    const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as { hooks: object };
    expect(Object.keys(settings.hooks)).toEqual(
      expect.arrayContaining(['PermissionRequest', 'StopFailure', 'SessionEnd']),
    );
    // Codex before 0.129 checks no hook trust: no config.toml is written
    expect(existsSync(join(home, '.codex', 'config.toml'))).toBe(false);
    const explicit = await cliWith(
      { versionProbe },
      'install',
      '--home',
      home,
      '--agents',
      'claude',
      '--claude-version',
      '2.0.0',
      '--json',
    );
    const report = JSON.parse(explicit.out) as { agents: { version?: { version: string; from: string } }[] };
    expect(report.agents[0]?.version).toEqual({ version: '2.0.0', from: '--claude-version' });
  });

  it('install && verify passes on a fresh home (every agent, grok included)', { timeout: 240_000 }, async () => {
    const home = tempDir();
    expect((await cli('install', '--home', home)).code).toBe(0);
    const v = await cli('verify', '--home', home, '--shells', 'dash', '--json');
    const report = JSON.parse(v.out) as { ok: boolean; checks: { id: string; ok: boolean; detail: string }[] };
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect({ code: v.code, ok: report.ok }).toEqual({ code: 0, ok: true });
    expect(new Set(report.checks.map((c) => c.id.split('/')[0]))).toEqual(new Set(AGENT_IDS));
    expect(report.checks.some((c) => c.id === 'grok/dash/no-env')).toBe(true);
  });

  it('verify names the failing check for each mutant', { timeout: 120_000 }, async () => {
    const mutants: [string, (script: string, config: string) => [string, string], string][] = [
      ['exit before capture', (s, c) => [s.replace('#!/bin/sh\n', '#!/bin/sh\nexit 0\n'), c], 'codex/dash/no-env'],
      ['extra stdout', (s, c) => [s.replace('#!/bin/sh\n', '#!/bin/sh\necho hi\n'), c], 'codex/dash/no-env'],
      ['wrong path', (s, c) => [s.replaceAll('/hook/codex"', '/hook/codexx"'), c], 'codex/dash/live'],
      [
        'no token',
        (s, c) => [s.replaceAll(`-H "X-Orca-Agent-Hook-Token: $\{ORCA_AGENT_HOOK_TOKEN}" \\\n`, ''), c],
        'codex/dash/live',
      ],
      [
        'swallowed exit code',
        (s, c) => [s, c.replaceAll("codex-hook.sh'; else", "codex-hook.sh' || :; else")],
        'codex/dash/launcher-exit-code',
      ],
    ];
    for (const [name, mutate, failing] of mutants) {
      const home = tempDir();
      await cli('install', '--home', home, '--agents', 'codex');
      const scriptPath = join(home, '.orca', 'agent-hooks', 'codex-hook.sh');
      const configPath = join(home, '.codex', 'hooks.json');
      const [s, c] = mutate(readFileSync(scriptPath, 'utf8'), readFileSync(configPath, 'utf8'));
      expect({
        name,
        changed: s !== readFileSync(scriptPath, 'utf8') || c !== readFileSync(configPath, 'utf8'),
      }).toEqual({ name, changed: true });
      writeFileSync(scriptPath, s);
      writeFileSync(configPath, c);
      const v = await cli('verify', '--home', home, '--shells', 'dash', '--agents', 'codex');
      expect({
        name,
        code: v.code,
        line: v.out.split('\n').find((l) => l.startsWith(`FAIL ${failing}`)) !== undefined,
      }).toEqual({
        name,
        code: 1,
        line: true,
      });
    }
  });
});
