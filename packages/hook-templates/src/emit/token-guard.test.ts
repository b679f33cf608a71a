import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, jsonPayload, tempDir, writeScripts } from '../../test/support/fixtures.ts';
import { endpointFile } from '../../test/support/harness.ts';
import { powershellErrors } from '../../test/support/pwsh-grammar.ts';
import { runProcess } from '../../test/support/run.ts';
import { type RecordingServer, startRecordingServer } from '../../test/support/server.ts';
import { availableShells, pool } from '../../test/support/shells.ts';
import { prepareWine, type WineSetup, winPath } from '../../test/support/wine.ts';
import { AGENTS, protocolLineFor } from '../agents/registry.ts';
import { AGENT_IDS, type AgentId } from '../agents/sources.ts';
import { planFor } from '../plan/plan-for.ts';
import { emitScript } from './script.ts';

/**
 * Issue 16 item 7: a token that is not `^[A-Za-z0-9._-]+$` (a CRLF would become an injected
 * header in curl's request) is treated as absent by every script: exit 0, no request.
 */
const GOOD = 'Tok.en_1-2';
const HOSTILE_TOKENS: [string, string][] = [
  ['CRLF header injection', `${GOOD}\r\nX-Injected: 1`],
  ['LF header injection', `${GOOD}\nX-Injected: 1`],
  ['trailing CR', `${GOOD}\r`],
  ['space', `${GOOD} x`],
  ['tab', `\t${GOOD}`],
  ['double quote', `${GOOD}"`],
  ['semicolon', `${GOOD};id`],
  ['colon (endpoint-valid, not a token)', 'a:b'],
  ['slash', 'a/b'],
  ['non-ASCII', 'tök'],
  ['percent', '%PATH%'],
  ['bang', 'tok!x'],
];
const PANE = 'tab-1:0b6e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b';
const shells = availableShells();
let server: RecordingServer;
let scripts: Record<AgentId, string>;

beforeAll(async () => {
  server = await startRecordingServer();
  scripts = writeScripts(tempDir('orca-ht-token-'));
});
afterAll(() => server.close());

function paneEnv(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return cleanEnv({
    ORCA_AGENT_HOOK_PORT: String(server.port),
    ORCA_AGENT_HOOK_TOKEN: token,
    ORCA_PANE_KEY: PANE,
    ORCA_AGENT_HOOK_ENV: 'test',
    ORCA_AGENT_HOOK_VERSION: '1',
    ...extra,
  });
}

function protocolStdout(agent: AgentId): string {
  const line = protocolLineFor(AGENTS[agent], undefined);
  return line === null ? '' : `${line}\n`;
}

const payload = Buffer.from(jsonPayload(200_000, 'token-guard'));

describe('POSIX scripts treat a malformed ORCA_AGENT_HOOK_TOKEN as absent (real sh, real curl, loopback server)', () => {
  const sh = shells[0];
  it.each(HOSTILE_TOKENS)(
    '%s: every agent under /bin/sh exits 0 with only its protocol line; no request arrives',
    async (_name, token) => {
      if (sh === undefined) throw new Error('no POSIX shell found');
      const before = server.requests.length;
      const results = await pool(
        AGENT_IDS.map(
          (agent) => async () =>
            [agent, await runProcess([...sh.argv, scripts[agent]], { env: paneEnv(token), input: payload })] as const,
        ),
      );
      for (const [agent, r] of results) {
        expect({ agent, code: r.code, stdout: r.stdout, stderr: r.stderr, epipe: r.epipe }).toEqual({
          agent,
          code: 0,
          stdout: protocolStdout(agent),
          stderr: '',
          epipe: false,
        });
      }
      expect(server.requests.slice(before)).toEqual([]);
    },
  );

  it.each(shells.map((s) => [s.name, s] as const))(
    'CRLF token under %s: no request, no injected header',
    async (_n, shell) => {
      const before = server.requests.length;
      const r = await runProcess([...shell.argv, scripts.codex], {
        env: paneEnv(`${GOOD}\r\nX-Injected: 1`),
        input: payload,
      });
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
      expect(server.requests.slice(before)).toEqual([]);
      expect(server.requests.filter((q) => q.headers['x-injected'] !== undefined)).toEqual([]);
    },
  );

  it('an endpoint-file token that is not a token character run is treated as absent too', async () => {
    const sh0 = shells[0];
    if (sh0 === undefined) throw new Error('no POSIX shell found');
    const before = server.requests.length;
    const ep = endpointFile(`ORCA_AGENT_HOOK_PORT=${server.port}\nORCA_AGENT_HOOK_TOKEN=a:b/c\n`);
    const r = await runProcess([...sh0.argv, scripts.codex], {
      env: paneEnv(GOOD, { ORCA_AGENT_HOOK_ENDPOINT: ep }),
      input: payload,
    });
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
    expect(server.requests.slice(before)).toEqual([]);
  });

  it('control: a token of [A-Za-z0-9._-] posts exactly one request per agent with that token', async () => {
    const sh0 = shells[0];
    if (sh0 === undefined) throw new Error('no POSIX shell found');
    const results = await pool(
      AGENT_IDS.map((agent) => async () => {
        const token = `${GOOD}.${agent}`;
        const r = await runProcess([...sh0.argv, scripts[agent]], { env: paneEnv(token), input: payload });
        return [agent, token, r] as const;
      }),
    );
    for (const [agent, token, r] of results) {
      expect(r.code).toBe(0);
      expect(server.byToken(token).map((q) => q.url)).toEqual([`/hook/${AGENTS[agent].source}`]);
    }
  });
});

describe('batch scripts under wine cmd treat a malformed token as absent', () => {
  let wine: WineSetup = { ok: false, reason: 'not prepared' };
  const dir = tempDir('orca-ht-token-batch-');
  beforeAll(() => {
    wine = prepareWine();
    if (!wine.ok) console.warn(`[hook-templates] skipping batch token cases under wine: ${wine.reason}`);
    for (const agent of ['codex', 'claude'] as const) {
      writeFileSync(join(dir, `${agent}-hook.cmd`), emitScript(planFor(agent, { os: 'windows', dialect: 'batch' })));
    }
  }, 180_000);

  it('hostile tokens: exit 0, protocol line only, curl.exe never runs; a good token reaches curl argv', {
    timeout: 300_000,
  }, async (ctx) => {
    if (!wine.ok) {
      console.warn(`[hook-templates] batch token cases: ${wine.reason}`);
      ctx.skip();
      return;
    }
    const wineEnv = wine.env;
    const canary = join(dir, 'canary');
    const tokens: [string, string][] = [
      ...HOSTILE_TOKENS,
      ['cmd injection', `x" & echo pwned>${winPath(canary)} & "`],
      ['ampersand', `tok&echo pwned>${winPath(canary)}`],
    ];
    const cases = [
      ...tokens.map(([name, token], i) => ({ name, token, agent: 'codex' as const, log: join(dir, `bad-${i}.log`) })),
      { name: 'control', token: GOOD, agent: 'codex' as const, log: join(dir, 'good.log') },
      { name: 'control claude', token: GOOD, agent: 'claude' as const, log: join(dir, 'good-claude.log') },
    ];
    const results = await pool(
      cases.map((c) => async () => {
        const r = await runProcess(['wine', 'cmd', '/c', winPath(join(dir, `${c.agent}-hook.cmd`))], {
          env: {
            ...wineEnv,
            // Why: without a UTF-8 locale wine transliterates non-ASCII env bytes before cmd sees them.
            LANG: 'C.UTF-8',
            ORCA_AGENT_HOOK_PORT: '4711',
            ORCA_AGENT_HOOK_TOKEN: c.token,
            ORCA_PANE_KEY: PANE,
            ORCA_TEST_CURL_LOG: c.log,
          },
          input: '{"a":1}',
          killAfterMs: 120_000,
          resolveOnExit: true,
        });
        return { c, r, log: existsSync(c.log) ? readFileSync(c.log, 'utf8') : null };
      }),
      1,
    );
    console.log(
      results.map(({ c, log }) => `${c.name}: ${log === null ? 'no curl' : 'curl ran'}`).join('; '),
      'canary',
      existsSync(canary),
    );
    for (const { c, r, log } of results) {
      const args = (log ?? '')
        .split('\n')
        .filter((l) => l.startsWith('ARG '))
        .map((l) => l.slice(4));
      if (c.name.startsWith('control')) {
        expect({ name: c.name, code: r.code, token: args.includes(`X-Orca-Agent-Hook-Token: ${GOOD}`) }).toEqual({
          name: c.name,
          code: 0,
          token: true,
        });
      } else {
        expect({ name: c.name, code: r.code, stdout: r.stdout, curl: log }).toEqual({
          name: c.name,
          code: 0,
          stdout: '{}\r\n',
          curl: null,
        });
      }
    }
    expect(existsSync(canary)).toBe(false);
  });
});

describe('PowerShell scripts treat a malformed token as absent (structure + grammar; no runtime here)', () => {
  const guard = `if ($env:ORCA_AGENT_HOOK_TOKEN -cnotmatch '\\A[A-Za-z0-9._-]+\\z') { exit 0 }`;
  it.each(AGENT_IDS)(
    '%s.ps1: the token guard follows the endpoint parse, precedes the stdin read and the POST, and parses',
    async (agent) => {
      const text = emitScript(planFor(agent, { os: 'windows', dialect: 'pwsh' }));
      const lines = text.split('\r\n');
      const at = (needle: string) => lines.findIndex((l) => l.includes(needle));
      const g = lines.indexOf(guard);
      expect(g).toBeGreaterThan(-1);
      expect(g).toBeGreaterThan(at('$env:ORCA_AGENT_HOOK_TOKEN = $found'));
      const read = at('OpenStandardInput');
      if (read >= 0) expect(g).toBeLessThan(read);
      expect(g).toBeLessThan(at('Invoke-WebRequest'));
      expect(await powershellErrors(text)).toEqual([]);
    },
  );
});
