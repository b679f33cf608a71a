import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommandHooksCli } from '@orca/command-hooks';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CliIo } from './output.ts';
import { runCli } from './program.ts';

function capture(): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l) };
}

describe('orca CLI', () => {
  it('exits 2 with one line on usage errors', async () => {
    for (const argv of [
      ['frobnicate'],
      ['start', '--hook-port', 'abc'],
      ['start', '--screen-workers', '-1'],
      ['start', '--screen-workers', '65'],
      ['hooks', 'install', '--agents', 'nope'],
    ]) {
      const io = capture();
      expect(await runCli(argv, io)).toBe(2);
      expect(
        io.errors
          .join('\n')
          .split('\n')
          .filter((l) => l.trim() !== '').length,
      ).toBeGreaterThan(0);
      expect(io.errors.join('\n')).not.toMatch(/\n\s+at /);
    }
  });

  it('hooks install --dry-run changes nothing; install writes; a re-install is all unchanged', async () => {
    const home = mkdtempSync(join(tmpdir(), 'orca-cli-home-'));
    // Why: the installer asks the agent on PATH for its version; this `claude` answers as 2.1.332 does.
    const bin = mkdtempSync(join(tmpdir(), 'orca-cli-bin-'));
    writeFileSync(join(bin, 'claude'), "#!/bin/sh\necho '2.1.332 (Claude Code)'\n", { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path ?? ''}`;
    onTestFinished(() => {
      process.env.PATH = path;
    });
    const dry = capture();
    expect(await runCli(['hooks', 'install', '--home', home, '--agents', 'claude', '--dry-run'], dry)).toBe(0);
    expect(dry.lines).toEqual([
      'claude 2.1.332 (from claude --version)',
      `(dry-run) create ${join(home, '.orca/agent-hooks/claude-hook.sh')}`,
      `(dry-run) create ${join(home, '.claude/settings.json')}`,
    ]);
    expect(existsSync(join(home, '.claude'))).toBe(false);
    expect(existsSync(join(home, '.orca'))).toBe(false);

    const real = capture();
    expect(await runCli(['hooks', 'install', '--home', home, '--agents', 'claude'], real)).toBe(0);
    expect(real.lines).toEqual([
      'claude 2.1.332 (from claude --version)',
      `create ${join(home, '.orca/agent-hooks/claude-hook.sh')}`,
      `create ${join(home, '.claude/settings.json')}`,
    ]);
    expect(statSync(join(home, '.orca/agent-hooks/claude-hook.sh')).mode & 0o777).toBe(0o755);
    const settings = JSON.parse(readFileSync(join(home, '.claude/settings.json'), 'utf8')) as { hooks: object };
    // The detected version gates the events: 2.1.332 knows PermissionRequest, StopFailure and SessionEnd.
    expect(Object.keys(settings.hooks)).toEqual(
      expect.arrayContaining(['PermissionRequest', 'StopFailure', 'SessionEnd']),
    );

    const again = capture();
    expect(await runCli(['--json', 'hooks', 'install', '--home', home, '--agents', 'claude'], again)).toBe(0);
    const report = JSON.parse(again.lines[0] ?? '{}') as { agents: { files: { action: string }[] }[] };
    expect(report.agents.flatMap((a) => a.files.map((f) => f.action))).toEqual(['unchanged', 'unchanged']);

    const verify = capture();
    expect(
      await runCli(['--json', 'hooks', 'verify', '--home', home, '--agents', 'claude', '--shells', 'dash'], verify),
    ).toBe(0);
    expect(JSON.parse(verify.lines[0] ?? '{}')).toMatchObject({ ok: true, shells: ['dash'] });
  });

  it('command-hooks list and dry-run run the user hooks for real', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-cli-cmdhooks-'));
    const home = mkdtempSync(join(tmpdir(), 'orca-cli-home-'));
    mkdirSync(join(root, '.claude'));
    writeFileSync(
      join(root, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "no prompts today" >&2; exit 2' }] }] },
      }),
    );
    const list = capture();
    expect(await runCli(['--json', 'command-hooks', 'list', '--root', root, '--home', home], list)).toBe(0);
    expect(JSON.parse(list.lines[0] ?? '{}')).toMatchObject({
      hooks: [{ dialect: 'claude', event: 'beforeSubmitPrompt', wireEvent: 'UserPromptSubmit' }],
      errors: [],
    });
    const dry = capture();
    const args = ['--json', 'command-hooks', 'dry-run', '--root', root, '--home', home];
    expect(await runCli([...args, '--event', 'beforeSubmitPrompt', '--payload', '{"prompt":"hi"}'], dry)).toBe(0);
    const report = JSON.parse(dry.lines[0] ?? '{}') as { outcome: unknown; records: { exitCode: number }[] };
    expect(report.outcome).toMatchObject({ haltRun: { reason: 'no prompts today' }, runs: 1 });
    expect(report.records.map((r) => r.exitCode)).toEqual([2]);
    const bad = capture();
    expect(await runCli([...args, '--event', 'beforeSubmitPrompt', '--payload', '{"prompt":1}'], bad)).toBe(2);
  });

  it('orca command-hooks and orca-command-hooks print the same JSON report for the same input', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-cli-cmdhooks-same-'));
    const home = mkdtempSync(join(tmpdir(), 'orca-cli-home-'));
    mkdirSync(join(root, '.claude'));
    writeFileSync(
      join(root, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true', timeout: 5 }] }], Bogus: 'not a list' },
      }),
    );
    const ours = capture();
    await runCli(['--json', 'command-hooks', 'list', '--root', root, '--home', home], ours);
    let theirs = '';
    await runCommandHooksCli(['list', '--root', root, '--home', home, '--json'], {
      stdout: (t) => {
        theirs += t;
      },
      stderr: () => undefined,
      readStdin: async () => '',
    });
    const report = JSON.parse(ours.lines[0] ?? '{}') as { hooks: unknown[]; warnings: unknown[] };
    expect(report.hooks).toHaveLength(1);
    expect(report.warnings.length + (report as unknown as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
    expect(report).toEqual(JSON.parse(theirs));
  });
});
