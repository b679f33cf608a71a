import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/fixtures.ts';
import { runProcess } from '../../test/support/run.ts';
import { pool } from '../../test/support/shells.ts';
import { prepareWine, type WineSetup, winPath } from '../../test/support/wine.ts';
import type { AgentId } from '../agents/sources.ts';
import { claudeWindowsWrapper } from '../launchers/windows.ts';
import { planFor } from '../plan/plan-for.ts';
import { emitScript } from './script.ts';

let wine: WineSetup = { ok: false, reason: 'not prepared' };
let dir = '';

beforeAll(() => {
  wine = prepareWine();
  if (!wine.ok) console.warn(`[hook-templates] skipping batch-under-wine cases: ${wine.reason}`);
  dir = tempDir('hooktpl-batch-');
  for (const agent of ['codex', 'grok', 'claude', 'cursor'] as const) {
    writeFileSync(join(dir, `${agent}-hook.cmd`), emitScript(planFor(agent, { os: 'windows', dialect: 'batch' })));
  }
  writeFileSync(join(dir, 'claude-hook-impl.cmd'), emitScript(planFor('claude', { os: 'windows', dialect: 'batch' })));
  writeFileSync(
    join(dir, 'claude-wrapper.cmd'),
    claudeWindowsWrapper('claude').replace('claude-hook-impl.cmd', 'claude-hook-impl.cmd'),
  );
  writeFileSync(join(dir, 'missing-wrapper.cmd'), claudeWindowsWrapper('nothere'));
}, 180_000);

interface WineCase {
  name: string;
  script: string;
  env: Record<string, string>;
  input: string | Buffer;
  check: (r: { code: number | null; stdout: string; log: string | null }) => void;
}

const PANE = 'tab!1:0b6e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b';
const full = (log: string, extra: Record<string, string> = {}) => ({
  ORCA_AGENT_HOOK_PORT: '4711',
  ORCA_AGENT_HOOK_TOKEN: 'tok',
  ORCA_PANE_KEY: PANE,
  ORCA_WORKTREE_ID: 'wt!x',
  ORCA_TEST_CURL_LOG: log,
  ...extra,
});
const args = (log: string | null) =>
  (log ?? '')
    .split('\n')
    .filter((l) => l.startsWith('ARG '))
    .map((l) => l.slice(4));

function cases(): WineCase[] {
  const log = (n: string) => join(dir, `${n}.log`);
  const hostile = Buffer.from('{"t":"it\'s %PATH% !x! ^& | < > \\"q\\" é 漢 😀\\r\\n"}');
  const canary = join(dir, 'canary');
  const ep = join(dir, 'endpoint.cmd');
  writeFileSync(
    ep,
    [
      'set ORCA_AGENT_HOOK_PORT=5151',
      'set ORCA_AGENT_HOOK_TOKEN=file-tok',
      `set ORCA_AGENT_HOOK_ENV=x&echo pwned>${winPath(canary)}`,
      'echo pwned',
      'set ORCA_PANE_KEY=evil',
      'set ORCA_AGENT_HOOK_VERSION=a"b',
      'set ORCA_AGENT_HOOK_VERSION=9',
      '',
    ].join('\r\n'),
  );
  const agent = (a: AgentId | 'claude-wrapper' | 'missing-wrapper') =>
    winPath(join(dir, a.endsWith('wrapper') ? `${a}.cmd` : `${a}-hook.cmd`));
  return [
    {
      name: 'no env ⇒ exit 0 unread, protocol line only, no curl',
      script: agent('codex'),
      env: { ORCA_TEST_CURL_LOG: log('noenv') },
      input: Buffer.alloc(2 * 1024 * 1024, 'a'),
      check: (r) =>
        expect({ code: r.code, stdout: r.stdout, log: r.log }).toEqual({ code: 0, stdout: '{}\r\n', log: null }),
    },
    {
      name: 'forwarding: payload streamed to curl stdin byte-exact; ! kept in argv',
      script: agent('codex'),
      env: full(log('fwd')),
      input: hostile,
      check: (r) => {
        expect(r.code).toBe(0);
        expect(args(r.log)).toContain(`paneKey=${PANE}`);
        expect(args(r.log)).toContain('worktreeId=wt!x');
        expect(args(r.log).slice(-2)).toEqual(['--data-urlencode', 'payload@-']);
        const stdin = (r.log ?? '').split('STDIN ')[1]?.split('\nEND ')[0];
        expect(Buffer.from(stdin ?? '', 'utf8').equals(hostile)).toBe(true);
      },
    },
    {
      name: 'grok: unset GROK_HOME ⇒ exit 0 with an empty grokHome; ! and trailing \\ survive',
      script: agent('grok'),
      env: full(log('grok')),
      input: '{"a":1}',
      check: (r) => {
        expect(r.code).toBe(0);
        expect(args(r.log)).toContain('grokHome=');
      },
    },
    {
      name: 'grok: GROK_HOME with ! and a trailing backslash',
      script: agent('grok'),
      env: full(log('grok2'), { GROK_HOME: 'C:\\Users\\a!b\\"g\\' }),
      input: '{"a":1}',
      check: (r) => {
        expect(r.code).toBe(0);
        expect(args(r.log)).toContain('grokHome=C:\\Users\\a!b\\g\\.');
      },
    },
    {
      name: 'endpoint.cmd parsed, never called: file port/token win; hostile lines run nothing',
      script: agent('codex'),
      env: full(log('ep'), { ORCA_AGENT_HOOK_ENDPOINT: winPath(ep), ORCA_AGENT_HOOK_VERSION: 'env-v' }),
      input: '{"a":1}',
      check: (r) => {
        expect({ code: r.code, stdout: r.stdout, canary: existsSync(canary) }).toEqual({
          code: 0,
          stdout: '{}\r\n',
          canary: false,
        });
        const a = args(r.log);
        expect(a).toContain('http://127.0.0.1:5151/hook/codex');
        expect(a).toContain('X-Orca-Agent-Hook-Token: file-tok');
        expect(a).toContain(`paneKey=${PANE}`);
        expect(a).toContain('version=9');
        expect(a).toContain('env=');
      },
    },
    {
      name: 'claude DEVIN_PROJECT_DIR skip drains through more.com (exit 0, no curl)',
      script: agent('claude'),
      env: full(log('devin'), { DEVIN_PROJECT_DIR: 'C:\\p' }),
      input: Buffer.alloc(1024 * 1024, 'b'),
      check: (r) =>
        expect({ code: r.code, stdout: r.stdout, log: r.log }).toEqual({ code: 0, stdout: '{}\r\n', log: null }),
    },
    {
      name: 'claude-hook.cmd wrapper runs the impl; a missing impl prints {} and exits 0',
      script: agent('missing-wrapper'),
      env: {},
      input: 'x',
      check: (r) => expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: '{}\r\n' }),
    },
    {
      name: 'cursor prints the launcher answer',
      script: agent('cursor'),
      env: { ORCA_CURSOR_HOOK_RESPONSE: '{"permission":"allow"}' },
      input: 'x',
      check: (r) =>
        expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: '{"permission":"allow"}\r\n' }),
    },
  ];
}

describe('batch scripts under wine cmd', () => {
  it('run the §9 cases (skips with a printed reason without wine/mingw)', { timeout: 240_000 }, async (ctx) => {
    if (!wine.ok) {
      console.warn(`[hook-templates] batch-under-wine: ${wine.reason}`);
      ctx.skip();
      return;
    }
    const env = wine.env;
    const all = cases();
    const results = await pool(
      all.map((c) => async () => {
        const logPath = c.env.ORCA_TEST_CURL_LOG ?? null;
        const r = await runProcess(['wine', 'cmd', '/c', c.script], {
          env: { ...env, ...c.env },
          input: c.input,
          killAfterMs: 120_000,
          resolveOnExit: true,
        });
        const log = logPath && existsSync(logPath) ? readFileSync(logPath, 'utf8') : null;
        return { c, r: { code: r.code, stdout: r.stdout, log } };
      }),
      1,
    );
    for (const { c, r } of results) {
      try {
        c.check(r);
      } catch (e) {
        throw new Error(
          `${c.name}: ${(e as Error).message} [code ${r.code}, stdout ${JSON.stringify(r.stdout)}, log ${JSON.stringify(r.log?.slice(300, 900))}]`,
        );
      }
    }
  });
});
