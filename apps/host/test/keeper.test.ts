import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { endKeeper, until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../src/host/host.ts';
import { listResumable, resumePanes } from '../src/resume/resume-panes.ts';
import { silentLogger } from '../src/runtime/logger.ts';
import { demoClaude } from './demo-claude.ts';

const hosts: Host[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop().catch(() => undefined);
  for (const d of dataDirs.splice(0)) await endKeeper(d);
});

async function keeperHost(dataDir: string): Promise<Host> {
  const host = await createHost({ dataDir, logger: silentLogger(), keeper: true, home: join(dataDir, '..', 'uhome') });
  hosts.push(host);
  if (!dataDirs.includes(dataDir)) dataDirs.push(dataDir);
  return host;
}

async function startClaude(host: Host, root: string, replyMs: number) {
  const c = await demoClaude(root);
  const view = await host.createPane({
    argv: [c.claude, '--permission-mode', 'default'],
    cwd: c.home,
    name: 'kept-agent',
    env: c.env({ ORCA_DEMO_REPLY_MS: String(replyMs) }),
  });
  await until('the agent idle', () => {
    const v = host.showPane(view.handle);
    return v.isRunningAgent && v.status === 'idle';
  });
  return { ...c, bin: dirname(c.claude), handle: view.handle };
}

const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('agents outlive the host (createHost({ keeper: true }))', () => {
  it('a host stopped mid-turn: the next host takes the pane over (same pid, same screen), its status is right, the turn finishes, its hooks are stored once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-kept-'));
    const dataDir = join(root, 'data');
    let host = await keeperHost(dataDir);
    const agent = await startClaude(host, root, 4_000);
    await host.dispatchInject(agent.handle, 'a long task');
    await until('working', () => host.showPane(agent.handle).status === 'working');
    const before = host.showPane(agent.handle);
    expect(before).toMatchObject({ kept: true, pid: expect.any(Number) });
    await host.stop();
    hosts.splice(hosts.indexOf(host), 1);

    host = await keeperHost(dataDir);
    const after = host.showPane(agent.handle);
    expect(after).toMatchObject({ pid: before.pid, kept: true });
    expect(after.exited).toBeUndefined();
    expect(after.tail).toBe(before.tail);
    // Mid-turn: the stored UserPromptSubmit row says working before any new evidence arrives.
    await until('working again, from the stored rows', () => host.showPane(agent.handle).status === 'working', {
      timeoutMs: 5_000,
    });
    await until('the turn ends under the new host', () => host.showPane(agent.handle).status === 'idle', {
      timeoutMs: 20_000,
    });
    const events = host.store.hookRows(host.showPane(agent.handle).paneKey).map((r) => r.hookEventName);
    expect(events.filter((e) => e === 'UserPromptSubmit')).toHaveLength(1);
    expect(events.filter((e) => e === 'Stop')).toHaveLength(1);
    // The new host drives it as its own: a second prompt goes in and is proven.
    const receipt = await host.dispatchInject(agent.handle, 'and one more');
    expect(receipt).toMatchObject({ submittedBy: 'hook', hookProof: 'text' });
    expect(lines(agent.turns).map((t) => t.prompt)).toEqual(['a long task', 'and one more']);
  }, 90_000);

  it('prompts queued behind a turn are delivered after a host restart, each once, in order (the queue is durable, the pane kept)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-kept-queue-'));
    const dataDir = join(root, 'data');
    let host = await keeperHost(dataDir);
    const agent = await startClaude(host, root, 3_000);
    await host.dispatchInject(agent.handle, 'the long turn');
    const first = host.queue.add(agent.handle, 'queued one');
    const second = host.queue.add(agent.handle, 'queued two');
    await host.stop();
    hosts.splice(hosts.indexOf(host), 1);
    host = await keeperHost(dataDir);
    const done = await Promise.all([first.id, second.id].map((id) => host.queue.wait(id, 60_000)));
    expect(done.map((i) => [i.state, i.receipt?.hookProof])).toEqual([
      ['submitted', 'text'],
      ['submitted', 'text'],
    ]);
    expect(lines(agent.turns).map((t) => t.prompt)).toEqual(['the long turn', 'queued one', 'queued two']);
  }, 90_000);

  it('the keeper killed under a live host: its panes end with cause keeper-died; the session is resumed with its id and launch flags', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-kept-died-'));
    const dataDir = join(root, 'data');
    const host = await keeperHost(dataDir);
    const agent = await startClaude(host, root, 200);
    await host.dispatchInject(agent.handle, 'remember the number 42');
    const session = lines(agent.starts)[0]?.sessionId as string;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    process.kill(host.keeperPid() as number, 'SIGKILL');
    await until('the pane ended with its keeper', () => host.showPane(agent.handle).exited?.cause === 'keeper-died');
    const [candidate] = listResumable(host.store);
    expect(candidate).toMatchObject({
      handle: agent.handle,
      agent: 'claude',
      sessionId: session,
      cause: 'keeper-died',
      plan: { argv: [join(agent.bin, 'claude'), '--permission-mode', 'default', '--resume', session] },
    });
    expect(host.showPane(agent.handle).resume).toEqual(candidate?.plan);
  }, 60_000);
});

describe('resume after the keeper is gone too (a reboot, orca stop --all)', () => {
  it('the next host marks the pane keeper-gone; resume starts the agent again with its session and flags, once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-resume-'));
    const dataDir = join(root, 'data');
    let host = await keeperHost(dataDir);
    const agent = await startClaude(host, root, 200);
    await host.dispatchInject(agent.handle, 'first turn');
    const session = lines(agent.starts)[0]?.sessionId as string;
    await host.stop({ panes: 'end' });
    hosts.splice(hosts.indexOf(host), 1);

    host = await keeperHost(dataDir);
    expect(host.showPane(agent.handle).exited).toMatchObject({ cause: 'keeper-gone' });
    const report = await resumePanes(host);
    expect(report.skipped).toEqual([]);
    expect(report.resumed).toHaveLength(1);
    const next = report.resumed[0]?.to.handle as string;
    await until('the resumed agent idle', () => host.showPane(next).status === 'idle');
    expect(lines(agent.starts).at(-1)).toEqual({
      argv: ['--permission-mode', 'default', '--resume', session],
      sessionId: session,
    });
    expect(host.showPane(next)).toMatchObject({ name: 'kept-agent', cwd: agent.home, kept: true });
    expect(host.showPane(agent.handle)).toMatchObject({ resumedAs: next });
    expect(listResumable(host.store)).toEqual([]);
    expect((await resumePanes(host, [agent.handle])).skipped).toEqual([
      { handle: agent.handle, reason: `already resumed as ${next}` },
    ]);
  }, 90_000);
});
