import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { KEEPER_DEAD_AFTER_MS, KEPT_EXITS_FILE } from '@orca/keeper';
import { endKeeper, until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../src/host/host.ts';
import { listResumable, resumePanes } from '../src/resume/resume-panes.ts';
import { silentLogger } from '../src/runtime/logger.ts';
import { runOrca } from './cli-process.ts';
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
    // Why: a turn long enough to still run after a stop and a start on a loaded machine (the screen is compared).
    const agent = await startClaude(host, root, 12_000);
    await host.dispatchInject(agent.handle, 'a long task');
    // Why: the hook says working before the agent draws it; the screen compared is the drawn one.
    await until('working, on screen too', () => {
      const v = host.showPane(agent.handle);
      return v.status === 'working' && (v.tail ?? '').includes('Thinking about it');
    });
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
      timeoutMs: 40_000,
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

  it('a host stalled past the keeper link’s dead-link timeout attaches again: the pane lives (same pid), nothing it printed meanwhile is lost, input works', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-kept-stall-'));
    const host = await keeperHost(join(root, 'data'));
    const view = await host.createPane({
      argv: [
        '/bin/sh',
        '-c',
        'i=0; while [ $i -lt 60 ]; do echo tick $i; i=$((i+1)); sleep 0.5; done; while read l; do echo "got:$l"; done',
      ],
      cwd: root,
      rows: 80,
    });
    await until('ticking', () => (host.showPane(view.handle).tail ?? '').includes('tick 2'));
    const before = host.showPane(view.handle);
    // A real stall of this process's event loop (a long GC, a blocked disk), past KEEPER_DEAD_AFTER_MS.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, KEEPER_DEAD_AFTER_MS + 2_000);
    await until(
      'ticks printed after the stall',
      () => /tick (3[0-9]|[4-5][0-9])/.test(host.showPane(view.handle).tail ?? ''),
      {
        timeoutMs: 30_000,
      },
    );
    const after = host.showPane(view.handle);
    expect(after.exited).toBeUndefined();
    expect(after.pid).toBe(before.pid);
    const ticks = [...(after.tail ?? '').matchAll(/^tick (\d+)$/gm)].map((m) => Number(m[1]));
    // Every tick from the first to the last, once each, in order: nothing lost or doubled across the stall.
    expect(ticks).toEqual(Array.from({ length: ticks.length }, (_, i) => (ticks[0] as number) + i));
    expect(ticks[0]).toBe(0);
    await until('the ticks done', () => (host.showPane(view.handle).tail ?? '').includes('tick 59'), {
      timeoutMs: 30_000,
    });
    host.send(view.handle, 'still here\r');
    await until('input reaches it', () => (host.showPane(view.handle).tail ?? '').includes('got:still here'));
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
    // Its end is recorded by the stopping host (host-restart) when the keeper's exit event came in
    // before the store closed, else by this host finding the keeper gone; both are resumable.
    expect(['keeper-gone', 'host-restart']).toContain(host.showPane(agent.handle).exited?.cause);
    // Two callers at once (the board and the CLI): the agent starts once.
    const [report, second] = await Promise.all([resumePanes(host), resumePanes(host)]);
    expect(second).toEqual({ resumed: [], skipped: [{ handle: agent.handle, reason: 'it is being resumed now' }] });
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

describe('exits a keeper left when it exited idle', () => {
  it('a pane that ended by itself while no host ran is recorded with its exit, not as lost with the keeper (not resumable)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-kept-exits-'));
    const dataDir = join(root, 'data');
    let host = await keeperHost(dataDir);
    const view = await host.createPane({ argv: ['/bin/sh', '-c', 'sleep 600'], cwd: root });
    const keeperPid = host.keeperPid() as number;
    await host.stop();
    hosts.splice(hosts.indexOf(host), 1);
    // What an idle keeper leaves: the exit it held (here the keeper is then ended for the test).
    process.kill(keeperPid, 'SIGKILL');
    await until('the keeper gone', () => {
      try {
        process.kill(keeperPid, 0);
        return false;
      } catch {
        return true;
      }
    });
    writeFileSync(
      join(dataDir, 'keeper', KEPT_EXITS_FILE),
      JSON.stringify({ [view.handle]: { code: 3, signal: null, at: 1_700_000_000_000 } }),
      { mode: 0o600 },
    );
    host = await keeperHost(dataDir);
    expect(host.showPane(view.handle).exited).toEqual({ code: 3, signal: null, cause: 'exit' });
    expect(listResumable(host.store)).toEqual([]);
    expect(existsSync(join(dataDir, 'keeper', KEPT_EXITS_FILE))).toBe(false);
  }, 60_000);
});

describe('a host without a keeper on a data dir whose keeper runs agents', () => {
  it('is refused (ORCA_HOST_KEEPER) instead of writing the running agents off; a keeper host then takes them over', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-no-keeper-'));
    const dataDir = join(root, 'data');
    let host = await keeperHost(dataDir);
    const view = await host.createPane({ argv: ['/bin/sh', '-c', 'sleep 600'], cwd: root });
    await host.stop();
    hosts.splice(hosts.indexOf(host), 1);
    // The keeper's hold on runtime.json is gone (here removed), so only the keeper itself tells.
    await until('the keeper holding runtime.json', () => existsSync(join(dataDir, 'runtime.json')));
    rmSync(join(dataDir, 'runtime.json'));
    await expect(
      createHost({ dataDir, logger: silentLogger(), keeper: false, home: join(root, 'uhome') }),
    ).rejects.toMatchObject({
      code: 'ORCA_HOST_KEEPER',
      message: expect.stringMatching(/--no-keeper would write its agents off/),
    });
    host = await keeperHost(dataDir);
    expect(host.showPane(view.handle)).toMatchObject({ kept: true });
    expect(host.showPane(view.handle).exited).toBeUndefined();
  }, 60_000);
});

describe('orca stop --all and a keeper this version cannot speak to', () => {
  it('a keeper that will not speak to this host (another protocol) is ended with SIGTERM, and stop says so', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-stop-foreign-'));
    const dataDir = join(root, 'data');
    const keeperDir = join(dataDir, 'keeper');
    mkdirSync(keeperDir, { recursive: true, mode: 0o700 });
    const marker = join(root, 'terminated');
    // Stands in for a keeper of a future protocol: it drops every link and ends on SIGTERM.
    const script = `
      const net = require('node:net'); const fs = require('node:fs');
      const [dir, marker] = process.argv.slice(1);
      const socket = dir + '/keeper.sock';
      net.createServer((c) => c.destroy()).listen(socket, () => {
        fs.writeFileSync(dir + '/keeper.json', JSON.stringify({ pid: process.pid, socket, protocol: 99, version: 'future', startedAt: Date.now() }), { mode: 0o600 });
      });
      process.on('SIGTERM', () => { fs.writeFileSync(marker, 'SIGTERM'); process.exit(0); });`;
    const foreign = spawn(process.execPath, ['-e', script, keeperDir, marker], { stdio: 'ignore' });
    await until('the foreign keeper up', () => existsSync(join(keeperDir, 'keeper.json')));
    const stopped = await runOrca(['--json', '--data-dir', dataDir, 'stop', '--all']);
    expect(stopped.stderr).toBe('');
    expect(stopped.code).toBe(0);
    expect(JSON.parse(stopped.stdout)).toMatchObject({ stopped: { keeper: foreign.pid }, keeperRunning: null });
    expect(readFileSync(marker, 'utf8')).toBe('SIGTERM');
  }, 60_000);
});
