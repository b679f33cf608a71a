import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, HOSTILE_TEXT, jsonPayload, tempDir, writeScripts } from '../../test/support/fixtures.ts';
import { argvLoggingCurlDir, decoyCatDir, endpointFile } from '../../test/support/harness.ts';
import { runProcess } from '../../test/support/run.ts';
import { type RecordingServer, startRecordingServer } from '../../test/support/server.ts';
import { availableShells, findBinary, pool } from '../../test/support/shells.ts';
import { AGENTS } from '../agents/registry.ts';
import type { AgentId } from '../agents/sources.ts';
import { decodeFormBody, trimTrailingNewlines } from '../verify/form.ts';
import { FORM_FIELDS } from './posix.ts';

const shells = availableShells();
const realCurl = findBinary('curl') ?? '/usr/bin/curl';
let server: RecordingServer;
let scripts: Record<AgentId, string>;
let curlDir: string;
let seq = 0;
const PANE = 'tab-9:6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';

beforeAll(async () => {
  server = await startRecordingServer();
  scripts = writeScripts(tempDir());
  curlDir = argvLoggingCurlDir(realCurl);
});
afterAll(() => server.close());

function env(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return cleanEnv({
    PATH: `${curlDir}:/usr/local/bin:/usr/bin:/bin`,
    CURL_ARGV_LOG: join(tempDir(), 'argv.log'),
    ORCA_AGENT_HOOK_PORT: String(server.port),
    ORCA_AGENT_HOOK_TOKEN: token,
    ORCA_PANE_KEY: PANE,
    ORCA_TAB_ID: 'tab-9',
    ORCA_WORKTREE_ID: 'wt!1',
    ORCA_AGENT_LAUNCH_TOKEN: 'launch-1',
    ORCA_AGENT_HOOK_ENV: 'test',
    ORCA_AGENT_HOOK_VERSION: '1',
    GROK_HOME: '/home/u/.grok',
    ORCA_ANTIGRAVITY_EVENT: 'PostInvocation',
    ORCA_COPILOT_HOOK_EVENT: 'Stop',
    ...extra,
  });
}

function expectForwarded(agent: AgentId, token: string, input: Buffer, argvLog: string): void {
  const got = server.byToken(token);
  expect(got.map((r) => r.url)).toEqual([`/hook/${AGENTS[agent].source}`]);
  const fields = decodeFormBody(got[0]?.body ?? Buffer.alloc(0));
  const want = [...FORM_FIELDS.map(([f]) => f), ...AGENTS[agent].extras.map((x) => x.field), 'payload'];
  expect(fields.map(([k]) => k)).toEqual(want);
  const byName = Object.fromEntries(fields.map(([k, v]) => [k, v.toString('utf8')]));
  expect({ paneKey: byName.paneKey, worktreeId: byName.worktreeId, launchToken: byName.launchToken }).toEqual({
    paneKey: PANE,
    worktreeId: 'wt!1',
    launchToken: 'launch-1',
  });
  const payload = fields.find(([k]) => k === 'payload')?.[1] ?? Buffer.alloc(0);
  expect(trimTrailingNewlines(payload).equals(trimTrailingNewlines(input))).toBe(true);
  const argv = existsSync(argvLog) ? readFileSync(argvLog, 'utf8') : '';
  expect(argv).toContain(`/hook/${AGENTS[agent].source}`);
  expect(argv).not.toContain('orca-marker');
}

const forwardAgents: AgentId[] = ['codex', 'antigravity', 'grok', 'claude', 'copilot'];

describe.each(shells.map((s) => [s.name, s] as const))('forwarding under %s', (_n, shell) => {
  it('generated payloads (any UTF-8, metacharacters, newlines) arrive byte-identical; payload on no argv', async () => {
    const texts = fc.sample(
      fc.string({ unit: 'binary', maxLength: 400 }).map((s) => s.replaceAll('\0', '')),
      { numRuns: 12, seed: 42 },
    );
    texts.push(HOSTILE_TEXT);
    const cases = texts.flatMap((text, i) => {
      const agent = forwardAgents[i % forwardAgents.length] as AgentId;
      const input = Buffer.from(
        JSON.stringify({ hook_event_name: 'Stop', text: `orca-marker ${text}`, raw: `\n${text}\n` }),
      );
      return [{ agent, input, token: `fw-${seq++}` }];
    });
    const results = await pool(
      cases.map((c) => async () => {
        const e = env(c.token);
        const r = await runProcess([...shell.argv, scripts[c.agent]], { env: e, input: c.input });
        return { c, r, log: e.CURL_ARGV_LOG ?? '' };
      }),
    );
    for (const { c, r, log } of results) {
      expect({ code: r.code, stderr: r.stderr, epipe: r.epipe }).toEqual({ code: 0, stderr: '', epipe: false });
      expectForwarded(c.agent, c.token, c.input, log);
    }
  });

  it('a 2 MiB hostile payload arrives intact (form, the test server only)', async () => {
    const token = `big-${seq++}`;
    const input = Buffer.from(jsonPayload(2 * 1024 * 1024, `orca-marker ${HOSTILE_TEXT}`));
    const e = env(token);
    const r = await runProcess([...shell.argv, scripts.codex], { env: e, input });
    expect({ code: r.code, stderr: r.stderr, epipe: r.epipe }).toEqual({ code: 0, stderr: '', epipe: false });
    expectForwarded('codex', token, input, e.CURL_ARGV_LOG ?? '');
  });

  it('raw-json-v1 (endpoint file opts in): JSON body, base64 meta of the six form values', async () => {
    const token = `raw-${seq++}`;
    const ep = endpointFile(
      `ORCA_AGENT_HOOK_PORT=${server.port}\nORCA_AGENT_HOOK_TOKEN=${token}\nORCA_AGENT_HOOK_ENV=file-env\nORCA_AGENT_HOOK_VERSION=7\nORCA_AGENT_HOOK_TRANSPORT=raw-json-v1\n`,
    );
    const input = Buffer.from(JSON.stringify({ hook_event_name: 'Stop', text: HOSTILE_TEXT }));
    const r = await runProcess([...shell.argv, scripts.codex], {
      env: env('stale-token', { ORCA_AGENT_HOOK_ENDPOINT: ep, ORCA_AGENT_HOOK_PORT: '1' }),
      input,
    });
    expect(r.code).toBe(0);
    const got = server.byToken(token);
    expect(got.map((g) => [g.url, g.headers['content-type'], g.headers['x-orca-agent-hook-meta-encoding']])).toEqual([
      ['/hook/codex', 'application/json', 'base64'],
    ]);
    const meta = Buffer.from(String(got[0]?.headers['x-orca-agent-hook-meta']), 'base64').toString('utf8');
    expect(meta.split('\x1f')).toEqual([PANE, 'tab-9', 'launch-1', 'wt!1', 'file-env', '7']);
    expect(trimTrailingNewlines(got[0]?.body ?? Buffer.alloc(0)).equals(input)).toBe(true);
  });

  it('raw-json-v1 with metadata in the endpoint charset: plain comma-separated meta, no base64', async () => {
    const token = `plain-${seq++}`;
    const ep = endpointFile(
      `ORCA_AGENT_HOOK_PORT=${server.port}\nORCA_AGENT_HOOK_TOKEN=${token}\nORCA_AGENT_HOOK_ENV=file-env\nORCA_AGENT_HOOK_VERSION=7\nORCA_AGENT_HOOK_TRANSPORT=raw-json-v1\n`,
    );
    const input = Buffer.from(JSON.stringify({ hook_event_name: 'Stop', text: HOSTILE_TEXT }));
    const r = await runProcess([...shell.argv, scripts.codex], {
      env: env('stale-token', { ORCA_AGENT_HOOK_ENDPOINT: ep, ORCA_AGENT_HOOK_PORT: '1', ORCA_WORKTREE_ID: 'wt-1' }),
      input,
    });
    expect(r.code).toBe(0);
    const got = server.byToken(token);
    expect(got.map((g) => [g.url, g.headers['content-type'], g.headers['x-orca-agent-hook-meta-encoding']])).toEqual([
      ['/hook/codex', 'application/json', 'plain'],
    ]);
    expect(String(got[0]?.headers['x-orca-agent-hook-meta']).split(',')).toEqual([
      PANE,
      'tab-9',
      'launch-1',
      'wt-1',
      'file-env',
      '7',
    ]);
    expect(trimTrailingNewlines(got[0]?.body ?? Buffer.alloc(0)).equals(input)).toBe(true);
  });

  it('env transport is ignored: only the endpoint file may opt into raw-json-v1', async () => {
    const token = `notraw-${seq++}`;
    const r = await runProcess([...shell.argv, scripts.codex], {
      env: env(token, { ORCA_AGENT_HOOK_TRANSPORT: 'raw-json-v1' }),
      input: '{"a":1}',
    });
    expect(r.code).toBe(0);
    expect(server.byToken(token).map((g) => g.headers['content-type'])).toEqual(['application/x-www-form-urlencoded']);
  });

  it('endpoint file beats a stale env; hostile files run nothing, print nothing, set nothing off-list', async () => {
    const canary = join(tempDir(), 'canary');
    const token = `file-${seq++}`;
    const hostile = [
      `ORCA_AGENT_HOOK_PORT=$(touch ${canary})`,
      `ORCA_AGENT_HOOK_TOKEN=\`touch ${canary}\``,
      `ORCA_AGENT_HOOK_ENV=x;touch ${canary}`,
      'echo pwned',
      `ORCA_PANE_KEY=evil`,
      `PATH=/nonexistent`,
      `ORCA_AGENT_HOOK_PORT=${server.port}\r`,
      `set ORCA_AGENT_HOOK_TOKEN=${token}\r`,
      'ORCA_AGENT_HOOK_VERSION=v 2',
    ].join('\n');
    const r = await runProcess([...shell.argv, scripts.codex], {
      env: env('stale', { ORCA_AGENT_HOOK_ENDPOINT: endpointFile(hostile), ORCA_AGENT_HOOK_PORT: '1' }),
      input: '{"hook_event_name":"Stop"}',
    });
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr, canary: existsSync(canary) }).toEqual({
      code: 0,
      stdout: '{}\n',
      stderr: '',
      canary: false,
    });
    const fields = Object.fromEntries(
      decodeFormBody(server.byToken(token)[0]?.body ?? Buffer.alloc(0)).map(([k, v]) => [k, v.toString()]),
    );
    expect({ paneKey: fields.paneKey, env: fields.env, version: fields.version }).toEqual({
      paneKey: PANE,
      env: 'test',
      version: '1',
    });
  });

  it('missing, directory, FIFO or garbage endpoint files are ignored silently', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    writeFileSync(join(dir, 'garbage'), Buffer.from([0xff, 0xfe, 0x41, 0x0a, 0x3d, 0x3d]));
    for (const ep of [join(dir, 'missing'), dir, join(dir, 'fifo'), join(dir, 'garbage')]) {
      const token = `ign-${seq++}`;
      const r = await runProcess([...shell.argv, scripts.codex], {
        env: env(token, { ORCA_AGENT_HOOK_ENDPOINT: ep }),
        input: '{"a":1}',
        killAfterMs: 20_000,
      });
      expect({ ep, code: r.code, stdout: r.stdout, stderr: r.stderr, n: server.byToken(token).length }).toEqual({
        ep,
        code: 0,
        stdout: '{}\n',
        stderr: '',
        n: 1,
      });
    }
  });

  it('a hostile ~/.curlrc and comma-decimal locales change nothing', async () => {
    const locales = execFileSync('locale', ['-a'], { encoding: 'utf8' });
    const hasDe = /^de_DE\.utf-?8$/im.test(locales);
    if (process.env.CI) expect(hasDe).toBe(true);
    if (!hasDe) console.warn('[hook-templates] de_DE.UTF-8 missing (locale-gen it); testing the curlrc part only');
    const home = tempDir();
    writeFileSync(join(home, '.curlrc'), `proxy = http://127.0.0.1:9\noutput = ${join(home, 'leak')}\nverbose\n`);
    const token = `loc-${seq++}`;
    const localeEnv: Record<string, string> = hasDe
      ? { LC_ALL: 'de_DE.UTF-8', LC_NUMERIC: 'de_DE.UTF-8', LANG: 'de_DE.UTF-8' }
      : {};
    const r = await runProcess([...shell.argv, scripts.claude], {
      env: env(token, { HOME: home, ...localeEnv }),
      input: '{"hook_event_name":"Stop"}',
    });
    expect({
      code: r.code,
      stdout: r.stdout,
      stderr: r.stderr,
      n: server.byToken(token).length,
      leak: existsSync(join(home, 'leak')),
    }).toEqual({
      code: 0,
      stdout: '{}\n',
      stderr: '',
      n: 1,
      leak: false,
    });
  });

  it('command-code recovers empty ORCA_* keys from an ancestor environment', async () => {
    const token = `recover-${seq++}`;
    const e = env(token);
    const strip = ['ORCA_AGENT_HOOK_PORT', 'ORCA_AGENT_HOOK_TOKEN', 'ORCA_PANE_KEY', 'ORCA_TAB_ID']
      .map((k) => `-u ${k}`)
      .join(' ');
    // Why: the intermediate sh keeps the full env in /proc/<pid>/environ; the script itself gets none of it.
    const r = await runProcess(
      ['/bin/sh', '-c', `env ${strip} ${shell.argv.join(' ')} '${scripts['command-code']}'; exit $?`],
      {
        env: e,
        input: '{"hook_event_name":"Stop"}',
      },
    );
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const got = server.byToken(token);
    const fields = Object.fromEntries(
      decodeFormBody(got[0]?.body ?? Buffer.alloc(0)).map(([k, v]) => [k, v.toString()]),
    );
    expect({ n: got.length, paneKey: fields.paneKey, tabId: fields.tabId }).toEqual({
      n: 1,
      paneKey: PANE,
      tabId: 'tab-9',
    });
  });

  it('a decoy cat first on PATH is never used; capture is complete', async () => {
    const canary = join(tempDir(), 'decoy-ran');
    const token = `decoy-${seq++}`;
    const input = Buffer.from(jsonPayload(300_000, 'decoy'));
    const e = env(token);
    const r = await runProcess([...shell.argv, scripts.droid], {
      env: { ...e, PATH: `${decoyCatDir(canary)}:${e.PATH}` },
      input,
    });
    expect({ code: r.code, stderr: r.stderr, epipe: r.epipe, decoy: existsSync(canary) }).toEqual({
      code: 0,
      stderr: '',
      epipe: false,
      decoy: false,
    });
    expectForwarded('droid', token, input, e.CURL_ARGV_LOG ?? '');
  });
});
