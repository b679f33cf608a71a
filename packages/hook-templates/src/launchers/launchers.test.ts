import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanEnv, jsonPayload, tempDir } from '../../test/support/fixtures.ts';
import { runProcess } from '../../test/support/run.ts';
import { availableShells, findBinary, pool } from '../../test/support/shells.ts';
import type { AgentId } from '../agents/sources.ts';
import { HookTemplatesError } from '../errors.ts';
import { launcherCommand } from './for-agent.ts';
import { isManagedCommand } from './managed.ts';
import { decodeEncodedCommand } from './powershell.ts';
import { cmdFastPath, windowsDirect } from './windows.ts';

const shells = availableShells();
const setpriv = findBinary('setpriv');
const payload = Buffer.from(jsonPayload(1024 * 1024 + 5, 'launcher'));

function world(): { dir: string; standin: (code: number) => string } {
  const dir = tempDir('orca-ht-launch-');
  chmodSync(dir, 0o755);
  return {
    dir,
    standin: (code) => {
      const p = join(dir, `standin-${code}.sh`);
      writeFileSync(p, `#!/bin/sh\ncat >/dev/null\necho started-$ORCA_ANTIGRAVITY_EVENT\nexit ${code}\n`, {
        mode: 0o755,
      });
      return p;
    },
  };
}

interface Case {
  name: string;
  agent: AgentId;
  form: 'posixGuarded' | 'posixReadable';
  script: string;
  asNobody?: boolean;
  want: { code: number; stdout: string };
  env?: Record<string, string>;
}

function cases(): Case[] {
  const w = world();
  const missing = join(w.dir, 'missing.sh');
  const directory = join(w.dir, 'a-dir');
  mkdirSync(directory);
  const noExec = join(w.dir, 'noexec.sh');
  writeFileSync(noExec, '#!/bin/sh\ncat >/dev/null\necho started-noexec\nexit 3\n', { mode: 0o644 });
  const unreadable = join(w.dir, 'unreadable.sh');
  writeFileSync(unreadable, '#!/bin/sh\nexit 9\n', { mode: 0o111 });
  const out: Case[] = [];
  for (const form of ['posixGuarded', 'posixReadable'] as const) {
    const declined = { code: 0, stdout: '{"decision":"ask"}\n' };
    const agent: AgentId = 'antigravity';
    out.push({ name: `${form} missing`, agent, form, script: missing, want: declined });
    out.push({ name: `${form} directory`, agent, form, script: directory, want: declined });
    out.push({
      name: `${form} non-executable`,
      agent,
      form,
      script: noExec,
      want: form === 'posixGuarded' ? declined : { code: 3, stdout: 'started-noexec\n' },
    });
    if (setpriv)
      out.push({ name: `${form} unreadable`, agent, form, script: unreadable, asNobody: true, want: declined });
    out.push({
      name: `${form} started exit 0`,
      agent,
      form,
      script: w.standin(0),
      want: { code: 0, stdout: 'started-PreToolUse\n' },
    });
    out.push({
      name: `${form} started exit 5`,
      agent,
      form,
      script: w.standin(5),
      want: { code: 5, stdout: 'started-PreToolUse\n' },
    });
    out.push({
      name: `${form} droid missing (no protocol line)`,
      agent: 'droid',
      form,
      script: missing,
      want: { code: 0, stdout: '' },
    });
  }
  return out;
}

if (!setpriv)
  console.warn('[hook-templates] setpriv missing: skipping the unreadable-script case (util-linux; CI has it)');

describe.each(shells.map((s) => [s.name, s] as const))('POSIX launchers under %s', (_n, shell) => {
  it('decline ⇒ fallback line + drain + exit 0; started ⇒ its exit code propagates', async () => {
    const all = cases();
    const results = await pool(
      all.map((c) => async () => {
        const { command } = launcherCommand({
          agent: c.agent,
          platform: 'posix',
          script: c.script,
          event: 'PreToolUse',
          form: c.form,
        });
        const argv = [
          ...(c.asNobody ? [setpriv ?? '', '--reuid=65534', '--regid=65534', '--clear-groups'] : []),
          ...shell.argv,
          '-c',
          command,
        ];
        return [c, await runProcess(argv, { env: cleanEnv({ HOME: '/', ...c.env }), input: payload })] as const;
      }),
    );
    for (const [c, r] of results) {
      expect({ name: c.name, code: r.code, stdout: r.stdout, stderr: r.stderr, epipe: r.epipe }).toEqual({
        name: c.name,
        ...c.want,
        stderr: '',
        epipe: false,
      });
    }
  });

  it('grok exits unread (exit 0, no output) without a pane key, and launches with one', async () => {
    const w = world();
    const { command } = launcherCommand({ agent: 'grok', platform: 'posix', script: w.standin(4) });
    const none = await runProcess([...shell.argv, '-c', command], { env: cleanEnv({}), input: payload });
    expect({ code: none.code, stdout: none.stdout, stderr: none.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
    const pane = await runProcess([...shell.argv, '-c', command], {
      env: cleanEnv({ ORCA_PANE_KEY: 'k' }),
      input: payload,
    });
    expect({ code: pane.code, stdout: pane.stdout, epipe: pane.epipe }).toEqual({
      code: 4,
      stdout: 'started-\n',
      epipe: false,
    });
  });

  it('runtimeHome: script under $HOME runs; missing or no HOME ⇒ {} and drain', async () => {
    const home = tempDir();
    mkdirSync(join(home, '.orca', 'agent-hooks'), { recursive: true });
    writeFileSync(
      join(home, '.orca', 'agent-hooks', 'claude-hook.sh'),
      '#!/bin/sh\ncat >/dev/null\necho ran\nexit 6\n',
      { mode: 0o755 },
    );
    const { command } = launcherCommand({ agent: 'claude', platform: 'posix', script: 'ignored' });
    const run = (env: Record<string, string>) => runProcess([...shell.argv, '-c', command], { env, input: payload });
    const ran = await run(cleanEnv({ HOME: home }));
    const missing = await run(cleanEnv({ HOME: tempDir() }));
    const { HOME: _drop, ...noHome } = cleanEnv({});
    const none = await run(noHome);
    expect([ran, missing, none].map((r) => [r.code, r.stdout, r.stderr, r.epipe])).toEqual([
      [6, 'ran\n', '', false],
      [0, '{}\n', '', false],
      [0, '{}\n', '', false],
    ]);
  });

  it('any path (space, quote, $, backtick, backslash) stays one argument', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell expansion in a path name
    const names = ['a b', "it's", '$HOME', '`id`', 'back\\slash', '${X}', "mi'x $y `z` \\ q"];
    const base = world().dir;
    const results = await pool(
      names.map((name) => async () => {
        const dir = join(base, name);
        mkdirSync(dir, { recursive: true });
        const script = join(dir, 'hook.sh');
        writeFileSync(script, '#!/bin/sh\ncat >/dev/null\nprintf "%s" "$0"\n', { mode: 0o755 });
        const { command } = launcherCommand({ agent: 'codex', platform: 'posix', script });
        return [
          script,
          command,
          await runProcess([...shell.argv, '-c', command], { env: cleanEnv({}), input: 'x' }),
        ] as const;
      }),
    );
    for (const [script, command, r] of results) {
      expect(r.stdout).toBe(script);
      expect(command.replace(/\$\{[A-Z_]+-\}/g, '')).not.toMatch(/\$[A-Za-z_{]/);
    }
  });
});

describe('launcher properties', () => {
  it('no bare $NAME / $' + '{NAME} in any POSIX launcher, for any path (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.constantFrom<AgentId>('codex', 'grok', 'cursor', 'antigravity'),
        (tail, agent) => {
          const script = `/h/${tail}`;
          if (/[\0\r\n]/.test(script)) {
            expect(() => launcherCommand({ agent, platform: 'posix', script })).toThrow(HookTemplatesError);
            return;
          }
          const { command } = launcherCommand({ agent, platform: 'posix', script, event: 'Stop' });
          expect(command.replace(/\$\{[A-Z_]+-\}/g, '')).not.toMatch(/\$[A-Za-z_{]/);
          expect(isManagedCommand(command)).toBe(false);
        },
      ),
    );
  });

  it('cmdFastPath and windowsDirect accept plain paths and decline others to encoded PowerShell', () => {
    const spec = (script: string) => ({
      agent: 'codex' as const,
      script,
      env: {},
      fallbackStdout: '{}',
      check: 'r' as const,
    });
    expect(cmdFastPath(spec('C:\\Users\\u\\.orca\\agent-hooks\\codex-hook.cmd'))).toBe(
      'C:\\Users\\u\\.orca\\agent-hooks\\codex-hook.cmd',
    );
    for (const bad of ['C:\\Users\\a b\\x.cmd', 'C:\\%x%\\y.cmd', 'C:\\a&b\\y.cmd', "C:\\it's\\y.cmd"]) {
      const out = cmdFastPath(spec(bad));
      expect(decodeEncodedCommand(out)).toContain(`'${bad.replaceAll("'", "''")}'`);
    }
    expect(windowsDirect({ ...spec('C:\\Users\\a b\\.orca\\agent-hooks\\claude-hook.cmd'), agent: 'claude' })).toBe(
      '"C:/Users/a b/.orca/agent-hooks/claude-hook.cmd"',
    );
    expect(decodeEncodedCommand(windowsDirect({ ...spec('C:\\Users\\a&b\\x.cmd'), agent: 'claude' }))).toContain(
      "'C:\\Users\\a&b\\x.cmd'",
    );
  });

  it('isManagedCommand recognises every platform form and ignores user commands', () => {
    const ours = [
      "/bin/sh '/home/u/.orca/agent-hooks/codex-hook.sh'",
      'C:\\Users\\u\\.orca\\agent-hooks\\codex-hook.cmd',
      launcherCommand({
        agent: 'copilot',
        platform: 'windows',
        script: 'C:\\U\\.orca\\agent-hooks\\copilot-hook.ps1',
        event: 'Stop',
      }).command,
      'C:\\U\\.orca\\agent-hooks\\antigravity-pre-tool-use.cmd',
      '/old/dir/agent-hooks/claude-hook-impl.cmd',
    ];
    for (const c of ours) expect(isManagedCommand(c)).toBe(true);
    for (const c of ['echo hi', '/home/u/hooks/codex-hook.sh', 'agent-hooks/unknown-hook.sh', '', 7, null])
      expect(isManagedCommand(c)).toBe(false);
  });
});
