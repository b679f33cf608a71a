import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endKeeper, until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { PROMPT_MAX_BYTES, QUEUE_MAX_PENDING_PER_PANE } from '../src/constants.ts';
import { createHost, type Host } from '../src/host/host.ts';
import type { QueueItemView } from '../src/panes/prompt-queue.ts';
import { silentLogger } from '../src/runtime/logger.ts';
import { demoPane } from './demo-pane.ts';

const hosts: Host[] = [];
const keeperDirs: string[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop().catch(() => undefined);
  for (const d of keeperDirs.splice(0)) await endKeeper(d);
});

async function startHost(dataDir: string): Promise<Host> {
  const host = await createHost({ dataDir, logger: silentLogger(), home: mkdtempSync(join(tmpdir(), 'orca-qhome-')) });
  hosts.push(host);
  return host;
}

const finalStates = new Set(['submitted', 'failed', 'cancelled', 'expired']);

describe('one writer per pane', () => {
  it('two dispatches at the same moment to one idle agent are two turns, each receipt proven by its own prompt hook', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-q-two-'));
    const host = await startHost(join(root, 'data'));
    const agent = await demoPane(host, root);
    const [a, b] = await Promise.all([
      host.dispatchInject(agent.handle, 'first prompt from script A', { timeoutMs: 30_000 }),
      host.dispatchInject(agent.handle, 'second prompt from person B', { timeoutMs: 30_000 }),
    ]);
    await until('both turns', () => agent.turns().length === 2);
    expect(agent.turns().sort()).toEqual(['first prompt from script A', 'second prompt from person B']);
    expect(a).toMatchObject({ submittedBy: 'hook', hookProof: 'text' });
    expect(b).toMatchObject({ submittedBy: 'hook', hookProof: 'text' });
    expect(a.promptDigest).not.toBe(b.promptDigest);
    // The second went in only after the first turn ended: its text was written after the first was proven.
    const [early, late] = [a, b].sort((x, y) => (x.stages[1]?.at ?? 0) - (y.stages[1]?.at ?? 0));
    const earlySubmitted = early?.stages.find((s) => s.stage === 'submitted')?.at ?? 0;
    expect(late?.stages.find((s) => s.stage === 'input_written')?.at).toBeGreaterThan(earlySubmitted);
  }, 60_000);

  it('raw input while a delivery holds the pane is refused with terminal_input_locked and writes nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-q-lock-'));
    const host = await startHost(join(root, 'data'));
    const agent = await demoPane(host, root);
    // A user's beforeSubmitPrompt hook that takes a second: the delivery holds the pane meanwhile.
    mkdirSync(join(root, 'home', '.claude'), { recursive: true });
    const settings = join(root, 'home', '.claude', 'settings.json');
    const installed = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, unknown[]> };
    installed.hooks.UserPromptSubmit = [
      ...(installed.hooks.UserPromptSubmit ?? []),
      { hooks: [{ type: 'command', command: 'sleep 1' }] },
    ];
    writeFileSync(settings, JSON.stringify(installed));
    const delivery = host.dispatchInject(agent.handle, 'held prompt');
    await until('the delivery to hold the pane', () => host.livePane(agent.handle).input.holder() !== null);
    expect(() => host.send(agent.handle, 'x')).toThrow(expect.objectContaining({ code: 'terminal_input_locked' }));
    await expect(delivery).resolves.toMatchObject({ hookProof: 'text' });
    expect(host.livePane(agent.handle).input.holder()).toBeNull();
    // Why: the echo log trails the PTY, so it is read once the delivery is proven, not at refusal time.
    // The refused key never reached the agent, before, inside or after the prompt's bytes.
    expect(agent.echo()).toContain('held prompt');
    expect(agent.echo()).not.toContain('x');
    expect(agent.turns()).toEqual(['held prompt']);
    expect(host.send(agent.handle, 'x')).toBe(1);
  }, 60_000);
});

describe('receipts proven per prompt', () => {
  it('a prompt hook carrying another prompt’s text is not counted as submitted (nor is the screen then)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-q-foreign-'));
    const host = await startHost(join(root, 'data'));
    // An agent that, on Enter, reports a *different* prompt in its UserPromptSubmit hook and works.
    const post = (event: string, extra: string) =>
      `printf '%s' '{"hook_event_name":"${event}"${extra}}' | curl -sS -f -X POST "http://127.0.0.1:$ORCA_AGENT_HOOK_PORT/hook/claude" -H "X-Orca-Agent-Hook-Token: $ORCA_AGENT_HOOK_TOKEN" --data-urlencode "paneKey=$ORCA_PANE_KEY" --data-urlencode "tabId=$ORCA_TAB_ID" --data-urlencode 'payload@-'`;
    const agent = `process.stdout.write('› '); process.stdin.setRawMode(true); process.stdin.on('data', (d) => { if (String(d).includes('\\r')) { process.stdout.write('\\x1b[2J\\x1b[H• Working\\r\\n'); require('child_process').execSync(process.env.PROMPT_HOOK); } }); setTimeout(() => {}, 60000)`;
    const pane = await host.createPane({
      argv: ['/bin/sh', '-c', `${post('Stop', '')}; exec node -e "$AGENT"`],
      cwd: root,
      env: { AGENT: agent, PROMPT_HOOK: post('UserPromptSubmit', ',"prompt":"somebody elses prompt"') },
    });
    await until('idle', () => host.showPane(pane.handle).status === 'idle');
    const delivery = host.dispatchInject(pane.handle, 'my own prompt', { timeoutMs: 8_000 });
    // While the proof is awaited the pane stays held for other deliveries, but once every byte of
    // the prompt is in (the submit keys sent), a human can type again.
    await until('the delivery holds the pane', () => host.livePane(pane.handle).input.holder() !== null);
    expect(() => host.send(pane.handle, ' ')).toThrow(expect.objectContaining({ code: 'terminal_input_locked' }));
    await until(
      'raw input let through again',
      () => {
        try {
          return host.send(pane.handle, ' ') === 1;
        } catch {
          return false;
        }
      },
      { timeoutMs: 6_000 },
    );
    expect(host.livePane(pane.handle).input.holder()).not.toBeNull();
    await expect(delivery).rejects.toMatchObject({
      code: 'prompt_not_submitted',
      message: expect.stringMatching(/another prompt's text/),
    });
    expect(host.showPane(pane.handle).status).toBe('working');
  }, 60_000);
});

describe('a host that stops mid-delivery', () => {
  it('sends the submit key of a prompt whose text is in, stops at once, and the next start settles the item without writing it again', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-q-stop-'));
    const dataDir = join(root, 'data');
    // Why: with the PTY keeper the pane outlives the stop, so what reached it can be read after.
    const keeperHost = () => createHost({ dataDir, logger: silentLogger(), keeper: true, home: root });
    keeperDirs.push(dataDir);
    const host = await keeperHost();
    hosts.push(host);
    const log = join(root, 'stdin.log');
    writeFileSync(log, '');
    // An agent (idle by its Stop hook) that takes keys and never proves a prompt: no hook, no new screen.
    const post = `printf '%s' '{"hook_event_name":"Stop"}' | curl -sS -f -X POST "http://127.0.0.1:$ORCA_AGENT_HOOK_PORT/hook/claude" -H "X-Orca-Agent-Hook-Token: $ORCA_AGENT_HOOK_TOKEN" --data-urlencode "paneKey=$ORCA_PANE_KEY" --data-urlencode "tabId=$ORCA_TAB_ID" --data-urlencode 'payload@-'`;
    const agent = `process.stdout.write('ready> '); process.stdin.setRawMode(true); process.stdin.on('data', (d) => require('fs').appendFileSync(${JSON.stringify(log)}, d)); setTimeout(() => {}, 60000)`;
    const pane = await host.createPane({
      argv: ['/bin/sh', '-c', `${post}; exec node -e "$AGENT"`],
      cwd: root,
      env: { AGENT: agent },
    });
    await until('idle', () => host.showPane(pane.handle).status === 'idle');
    const item = host.queue.add(pane.handle, 'never proven');
    await until('delivering', () => host.queue.get(item.id).state === 'delivering');
    await until('the text is in', () => readFileSync(log, 'utf8').includes('never proven'));
    const t0 = Date.now();
    await host.stop();
    hosts.splice(hosts.indexOf(host), 1);
    expect(Date.now() - t0).toBeLessThan(10_000);
    // The text went in with its submit key: nothing half-typed is left to merge with a next prompt.
    await until('the submit key reached the agent', () => readFileSync(log, 'utf8') === 'never proven\r');
    const again = await keeperHost();
    hosts.push(again);
    expect(again.showPane(pane.handle)).toMatchObject({ kept: true });
    expect(again.showPane(pane.handle).exited).toBeUndefined();
    expect(again.queue.get(item.id)).toMatchObject({ state: 'failed', error: { code: 'delivery_interrupted' } });
  }, 60_000);
});

describe('prompt queue', () => {
  it('five prompts queued while the agent works are delivered one per turn, in order, each with its receipt', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-q-five-'));
    const host = await startHost(join(root, 'data'));
    const agent = await demoPane(host, root, { replyMs: 1_500 });
    await host.dispatchInject(agent.handle, 'the long first task');
    const ids = [1, 2, 3, 4, 5].map((n) => host.queue.add(agent.handle, `queued task number ${n}`).id);
    expect(host.queue.list(agent.handle).map((i) => [i.state, i.position])).toEqual([
      ['queued', 1],
      ['queued', 2],
      ['queued', 3],
      ['queued', 4],
      ['queued', 5],
    ]);
    expect(host.showPane(agent.handle).queued).toBe(5);
    const done = await Promise.all(ids.map((id) => host.queue.wait(id, 60_000)));
    expect(done.map((i) => i.state)).toEqual(['submitted', 'submitted', 'submitted', 'submitted', 'submitted']);
    for (const item of done) expect(item.receipt).toMatchObject({ submittedBy: 'hook', hookProof: 'text' });
    expect(agent.turns()).toEqual([
      'the long first task',
      'queued task number 1',
      'queued task number 2',
      'queued task number 3',
      'queued task number 4',
      'queued task number 5',
    ]);
    // Delivered one after another: each was written after the previous one was submitted.
    const written = done.map((i) => i.deliveringAt ?? 0);
    expect([...written].sort((x, y) => x - y)).toEqual(written);
    expect(host.showPane(agent.handle).queued).toBeUndefined();
  }, 120_000);

  it('a prompt queued while a permission menu is up types nothing into it and is delivered after the answer', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-q-menu-'));
    const host = await startHost(join(root, 'data'));
    const agent = await demoPane(host, root, { tool: 'keyword:tests' });
    await host.dispatchInject(agent.handle, 'run the tests');
    await until('the permission menu', () => host.showPane(agent.handle).status === 'permission');
    const echoAtMenu = agent.echo();
    const item = host.queue.add(agent.handle, 'then summarise the results');
    await new Promise((r) => setTimeout(r, 2_500));
    expect(host.queue.get(item.id).state).toBe('queued');
    expect(agent.echo()).toBe(echoAtMenu);
    expect(host.send(agent.handle, 'y')).toBe(1);
    const done = await host.queue.wait(item.id, 30_000);
    expect(done).toMatchObject({ state: 'submitted', receipt: { hookProof: 'text' } });
    expect(agent.turns()).toEqual(['run the tests', 'then summarise the results']);
    // Between the menu and the queued prompt the agent read only the human's answer.
    expect(agent.echo().slice(echoAtMenu.length).startsWith('y\x1b[200~then summarise the results')).toBe(true);
  }, 90_000);

  it('remove, reorder and expiry change what is delivered; a final item cannot be removed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-q-edit-'));
    const host = await startHost(join(root, 'data'));
    const agent = await demoPane(host, root, { replyMs: 2_000 });
    await host.dispatchInject(agent.handle, 'busy now');
    const a = host.queue.add(agent.handle, 'prompt a');
    const b = host.queue.add(agent.handle, 'prompt b');
    const c = host.queue.add(agent.handle, 'prompt c');
    const d = host.queue.add(agent.handle, 'prompt d', { expiresInMs: 200 });
    expect(host.queue.remove(b.id)).toMatchObject({ state: 'cancelled' });
    expect(host.queue.move(c.id, 1).map((i) => i.id)).toEqual([c.id, a.id, d.id]);
    const last = await host.queue.wait(a.id, 60_000);
    expect(last.state).toBe('submitted');
    expect(host.queue.get(d.id)).toMatchObject({ state: 'expired', error: { code: 'timeout' } });
    expect(agent.turns()).toEqual(['busy now', 'prompt c', 'prompt a']);
    expect(() => host.queue.remove(a.id)).toThrow(expect.objectContaining({ code: 'queue_item_not_queued' }));
    expect(() => host.queue.remove(9_999)).toThrow(expect.objectContaining({ code: 'queue_item_unknown' }));
  }, 90_000);

  it('a bad item gets a clear refusal: empty, too large, unknown pane, exited pane, queue full', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-q-bad-'));
    const host = await startHost(join(root, 'data'));
    // A pane with no agent: its queue never delivers, so it fills.
    const shell = await host.createPane({ argv: ['/bin/sh', '-c', 'sleep 60'], cwd: root });
    expect(() => host.queue.add(shell.handle, ' \n\t')).toThrow(expect.objectContaining({ code: 'prompt_empty' }));
    expect(() => host.queue.add(shell.handle, 'x'.repeat(PROMPT_MAX_BYTES + 1))).toThrow(
      expect.objectContaining({ code: 'prompt_too_large', message: expect.stringContaining(String(PROMPT_MAX_BYTES)) }),
    );
    expect(() => host.queue.add('pane-nope', 'hi')).toThrow(expect.objectContaining({ code: 'terminal_handle_stale' }));
    for (let i = 0; i < QUEUE_MAX_PENDING_PER_PANE; i++) host.queue.add(shell.handle, `prompt ${i}`);
    expect(() => host.queue.add(shell.handle, 'one too many')).toThrow(
      expect.objectContaining({
        code: 'queue_full',
        message: expect.stringContaining(String(QUEUE_MAX_PENDING_PER_PANE)),
      }),
    );
    host.livePane(shell.handle).process.kill('SIGKILL');
    await until('the pane to exit', () => host.showPane(shell.handle).exited !== undefined);
    expect(() => host.queue.add(shell.handle, 'hi')).toThrow(
      expect.objectContaining({ code: 'terminal_guard_not_writable' }),
    );
    const items = host.queue.list(shell.handle);
    expect(items).toHaveLength(QUEUE_MAX_PENDING_PER_PANE);
    expect(new Set(items.map((i) => `${i.state} ${i.error?.code}`))).toEqual(
      new Set(['failed terminal_guard_not_writable']),
    );
    await expect(host.dispatchInject(shell.handle, '')).rejects.toMatchObject({ code: 'prompt_empty' });
  }, 60_000);

  it('a host restart with two prompts queued: each ends failed with a code, none is delivered', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-q-restart-'));
    const dataDir = join(root, 'data');
    const host = await startHost(dataDir);
    const agent = await demoPane(host, root, { replyMs: 30_000 });
    await host.dispatchInject(agent.handle, 'a long task');
    const first = host.queue.add(agent.handle, 'after the long task 1');
    const second = host.queue.add(agent.handle, 'after the long task 2');
    await host.stop();
    hosts.splice(hosts.indexOf(host), 1);
    const again = await startHost(dataDir);
    for (const id of [first.id, second.id]) {
      const item: QueueItemView = await again.queue.wait(id, 5_000);
      expect(item).toMatchObject({
        state: 'failed',
        error: {
          code: 'terminal_guard_not_writable',
          message: expect.stringMatching(/did not survive the host restart/),
        },
      });
    }
    expect(agent.turns()).toEqual(['a long task']);
    expect(finalStates.has(again.queue.get(first.id).state)).toBe(true);
  }, 90_000);
});
