import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, jsonPayload, tempDir, writeScripts } from '../../test/support/fixtures.ts';
import { type RunResult, runProcess } from '../../test/support/run.ts';
import { deadPort, type RecordingServer, startRecordingServer } from '../../test/support/server.ts';
import { availableShells, pool } from '../../test/support/shells.ts';
import { AGENTS, protocolLineFor } from '../agents/registry.ts';
import { AGENT_IDS, type AgentId } from '../agents/sources.ts';

const shells = availableShells();
const MIB = 1024 * 1024;
let server: RecordingServer;
let dead: number;
let scripts: Record<AgentId, string>;
let tokenSeq = 0;

beforeAll(async () => {
  server = await startRecordingServer();
  dead = await deadPort();
  scripts = writeScripts(tempDir());
});
afterAll(() => server.close());

function paneEnv(port: number, token: string, extra: Record<string, string> = {}): Record<string, string> {
  return cleanEnv({
    ORCA_AGENT_HOOK_PORT: String(port),
    ORCA_AGENT_HOOK_TOKEN: token,
    ORCA_PANE_KEY: 'tab-1:0b6e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
    ORCA_AGENT_HOOK_ENV: 'test',
    ORCA_AGENT_HOOK_VERSION: '1',
    ...extra,
  });
}

/** A HOME whose `~/.local/share/orca/agent-hooks/endpoint.env` points at `port` with `token`. */
function homeWithDefaultEndpoint(port: number, token: string): string {
  const home = tempDir('orca-ht-noenv-home-');
  const dir = join(home, '.local', 'share', 'orca', 'agent-hooks');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'endpoint.env'), `ORCA_AGENT_HOOK_PORT=${port}\nORCA_AGENT_HOOK_TOKEN=${token}\n`);
  return home;
}

function protocolStdout(agent: AgentId): string {
  const line = protocolLineFor(AGENTS[agent], undefined);
  return line === null ? '' : `${line}\n`;
}

function clean(r: RunResult, agent: AgentId): void {
  expect({ code: r.code, epipe: r.epipe, stderr: r.stderr, stdout: r.stdout, writeError: r.writeError }).toEqual({
    code: 0,
    epipe: false,
    stderr: '',
    stdout: protocolStdout(agent),
    writeError: undefined,
  });
}

const bigPayload = Buffer.from(jsonPayload(3 * MIB, 'big'));
const onePayload = Buffer.from(jsonPayload(MIB + 1, 'one'));

describe.each(shells.map((s) => [s.name, s] as const))('POSIX lifecycle under %s', (_name, shell) => {
  const run = (agent: AgentId, env: Record<string, string>, input: Buffer | string) =>
    runProcess([...shell.argv, scripts[agent]], { env, input });

  it('no Orca env: drains several MiB, exit 0, only the protocol line, no request', async () => {
    const token = `none-${tokenSeq++}`;
    // Why: a request needs somewhere to go; the host's default endpoint file in HOME names the
    // recording server, so a script that posted without Orca env would be seen.
    const home = homeWithDefaultEndpoint(server.port, token);
    const before = server.requests.length;
    const results = await pool(
      AGENT_IDS.map(
        (agent) => async () =>
          [agent, await run(agent, cleanEnv({ HOME: home }), agent === 'codex' ? bigPayload : onePayload)] as const,
      ),
    );
    for (const [agent, r] of results) clean(r, agent);
    expect(server.requests.slice(before)).toEqual([]);
    expect(server.byToken(token)).toEqual([]);
  });

  it('dead port with the full env: exit 0, drained, silent', async () => {
    const results = await pool(
      AGENT_IDS.map(
        (agent) => async () => [agent, await run(agent, paneEnv(dead, `dead-${tokenSeq++}`), onePayload)] as const,
      ),
    );
    for (const [agent, r] of results) clean(r, agent);
  });

  it('every skip with the full env: drained, no request', async () => {
    const cases = AGENT_IDS.flatMap((agent) =>
      AGENTS[agent].skips.map((skip) => ({ agent, env: skip.env, token: `skip-${tokenSeq++}` })),
    );
    const results = await pool(
      cases.map(
        (c) => async () =>
          [c, await run(c.agent, paneEnv(server.port, c.token, { [c.env]: '1' }), onePayload)] as const,
      ),
    );
    for (const [c, r] of results) {
      clean(r, c.agent);
      expect(server.byToken(c.token)).toEqual([]);
    }
  });

  it('empty stdin: exit 0; no request except Antigravity, which posts {}', async () => {
    const cases = AGENT_IDS.map((agent) => ({ agent, token: `empty-${tokenSeq++}` }));
    const results = await pool(
      cases.map((c) => async () => [c, await run(c.agent, paneEnv(server.port, c.token), '')] as const),
    );
    for (const [c, r] of results) {
      clean(r, c.agent);
      const got = server.byToken(c.token);
      if (c.agent === 'antigravity') expect(got.map((g) => g.url)).toEqual(['/hook/antigravity']);
      else expect(got).toEqual([]);
    }
  });

  it('live server: one request per event, exit 0, only the protocol line', async () => {
    const cases = AGENT_IDS.map((agent) => ({ agent, token: `live-${tokenSeq++}` }));
    const payload = Buffer.from(jsonPayload(200_000, 'live'));
    const results = await pool(
      cases.map((c) => async () => [c, await run(c.agent, paneEnv(server.port, c.token), payload)] as const),
    );
    for (const [c, r] of results) {
      clean(r, c.agent);
      expect(server.byToken(c.token).map((g) => [g.method, g.url])).toEqual([
        ['POST', `/hook/${AGENTS[c.agent].source}`],
      ]);
    }
  });
});
