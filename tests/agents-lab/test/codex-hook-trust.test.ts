import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installHooks } from '@orca/host';
import { parse, stringify } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAgentBinary } from '../src/agents/binaries.ts';
import { listCodexHooks } from '../src/agents/codex-app-server.ts';
import { endStrayProcesses } from '../src/harness/stray-processes.ts';

const codex = resolveAgentBinary('codex');
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'orca-lab-codex-trust-')));
const home = path.join(root, 'home');
const project = path.join(root, 'project');
fs.mkdirSync(project, { recursive: true });
const codexHome = path.join(home, '.codex');
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: codexHome };
const argv: [string, string] = [process.execPath, codex.target];
const configToml = path.join(codexHome, 'config.toml');

afterAll(() => {
  endStrayProcesses(root);
  fs.rmSync(root, { recursive: true, force: true });
});

function ours(hooks: Awaited<ReturnType<typeof listCodexHooks>>) {
  return hooks.filter((h) => h.command.includes('agent-hooks/codex-hook'));
}

describe('Codex hook trust against the real codex app-server', () => {
  it('hooks installed by the host are trusted by Codex itself (no --dangerously-bypass-hook-trust)', async () => {
    const [report] = await installHooks({ home, agents: ['codex'], agentVersions: { codex: codex.version } });
    expect(report?.error).toBeUndefined();
    const listed = ours(await listCodexHooks(argv, env, project));
    expect(listed.length).toBe(report?.codexTrustGranted?.length);
    expect(listed.length).toBeGreaterThanOrEqual(8);
    expect(listed.map((h) => [h.key, h.trustStatus])).toEqual(listed.map((h) => [h.key, 'trusted']));
    // the key the installer wrote is the key Codex computes
    expect(new Set(listed.map((h) => h.key))).toEqual(new Set(report?.codexTrustGranted));
  }, 60_000);

  it('a changed hash is reported as modified and a missing one as untrusted (the check can fail)', async () => {
    const doc = parse(fs.readFileSync(configToml, 'utf8')) as {
      hooks: { state: Record<string, { trusted_hash: string }> };
    };
    const keys = Object.keys(doc.hooks.state);
    const [tampered, removed] = keys;
    if (!tampered || !removed) throw new Error('expected at least two trust entries');
    const entry = doc.hooks.state[tampered];
    if (entry) entry.trusted_hash = `sha256:${'0'.repeat(64)}`;
    delete doc.hooks.state[removed];
    fs.writeFileSync(configToml, stringify(doc));
    const byKey = new Map(ours(await listCodexHooks(argv, env, project)).map((h) => [h.key, h.trustStatus]));
    expect(byKey.get(tampered)).toBe('modified');
    expect(byKey.get(removed)).toBe('untrusted');
  }, 60_000);

  it('installing again restores trust and changes nothing else', async () => {
    const [report] = await installHooks({ home, agents: ['codex'], agentVersions: { codex: codex.version } });
    expect(report?.files.find((f) => f.path === configToml)?.action).toBe('update');
    const listed = ours(await listCodexHooks(argv, env, project));
    expect(listed.every((h) => h.trustStatus === 'trusted')).toBe(true);
    const [again] = await installHooks({ home, agents: ['codex'], agentVersions: { codex: codex.version } });
    expect(again?.files.map((f) => f.action)).toEqual(again?.files.map(() => 'unchanged'));
  }, 60_000);
});
