import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../src/host/host.ts';
import type { NotifyEvent } from '../src/notify/notify-event.ts';
import { silentLogger } from '../src/runtime/logger.ts';
import { demoPane } from './demo-pane.ts';

const hosts: Host[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop().catch(() => undefined);
  for (const s of servers.splice(0)) s.close();
});

/** A local webhook receiver: every event it accepted, and a switch for what it answers. */
async function receiver(port = 0) {
  const events: NotifyEvent[] = [];
  const seen: { id: string; status: number }[] = [];
  let answer = 200;
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      const event = JSON.parse(body) as NotifyEvent;
      seen.push({ id: event.id, status: answer });
      if (answer === 200) events.push(event);
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    port: (server.address() as AddressInfo).port,
    events,
    seen,
    answer: (status: number) => {
      answer = status;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function hostWith(root: string, config: unknown): Promise<Host> {
  const dataDir = join(root, 'data');
  const host = await createHost({ dataDir, logger: silentLogger(), home: root });
  hosts.push(host);
  writeFileSync(join(dataDir, 'notify.json'), `// notifications of this test\n${JSON.stringify(config, null, 2)}\n`);
  return host;
}

describe('"needs you" notifications', () => {
  it('a permission menu alerts the webhook once; answering it sends resolved; explain names the rule and replays', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-notify-menu-'));
    const hook = await receiver();
    const host = await hostWith(root, {
      rules: [
        { on: 'waiting', sinks: ['hook'] },
        { on: 'done', sinks: ['hook'], minTurnSeconds: 0 },
      ],
      sinks: { hook: { type: 'webhook', url: hook.url } },
    });
    const agent = await demoPane(host, root, { tool: 'keyword:deploy' });
    await host.dispatchInject(agent.handle, 'please deploy it');
    await until('the alert', () => hook.events.some((e) => e.kind === 'waiting'));
    const waiting = hook.events.find((e) => e.kind === 'waiting') as NotifyEvent;
    expect(waiting).toMatchObject({ handle: agent.handle, agent: 'claude', reason: expect.any(String) });
    expect(waiting.text).toMatch(/is waiting for you/);
    expect(host.send(agent.handle, 'y')).toBe(1);
    await until('resolved', () => hook.events.some((e) => e.kind === 'resolved'));
    await until('done', () => hook.events.some((e) => e.kind === 'done'));
    // One alert for the one wait, its resolution naming it, then the end of the turn.
    expect(hook.events.map((e) => e.kind)).toEqual(['waiting', 'resolved', 'done']);
    expect(hook.events[1]?.resolves).toBe(waiting.id);
    const explained = await host.notify.explain(agent.handle, { limit: 20, replay: true });
    // The hook may say "waiting" before the menu is drawn (published first); the alert waited for the menu.
    const toPermission = explained.filter((t) => t.to === 'permission');
    expect(toPermission.length).toBeGreaterThan(0);
    for (const t of toPermission)
      expect(['screen-prompt', 'hook-row', 'title-asks-permission']).toContain(t.explanation.rule);
    expect(explained.length).toBeGreaterThanOrEqual(3);
    // Every kept evidence replays to the same verdict; a wait always keeps its evidence.
    for (const t of explained) {
      expect(t.replay, JSON.stringify(t)).toBeDefined();
      if (t.replay && 'same' in t.replay) expect(t.replay.same, JSON.stringify(t)).toBe(true);
    }
    for (const t of toPermission) expect(t.replay).toMatchObject({ same: true });
    // Why: the receiver has the event before the attempt that sent it is stored; an attempt on a
    // reused keep-alive socket the receiver just closed is retried, so count the delivered ones.
    const attempts = await until('three deliveries stored', () => {
      const all = host.notify.log(50);
      return all.filter((a) => a.outcome === 'delivered').length >= 3 ? all : false;
    });
    const delivered = attempts.filter((a) => a.outcome === 'delivered');
    expect(delivered.map((a) => a.kind)).toEqual(['waiting', 'resolved', 'done']);
    expect(delivered.every((a) => a.sink === 'hook' && a.status === 200 && a.latencyMs !== null)).toBe(true);
  }, 60_000);

  it("a hook's permission claim with no dialog on the screen (a tool the agent auto-allowed) never alerts", async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-notify-auto-'));
    const hook = await receiver();
    const host = await hostWith(root, {
      rules: [{ on: 'waiting', sinks: ['hook'] }],
      sinks: { hook: { type: 'webhook', url: hook.url } },
    });
    const post = (event: string, extra = '') =>
      `printf '%s' '{"hook_event_name":"${event}","session_id":"s1"${extra}}' | curl -sS -f -X POST "http://127.0.0.1:$ORCA_AGENT_HOOK_PORT/hook/claude" -H "X-Orca-Agent-Hook-Token: $ORCA_AGENT_HOOK_TOKEN" --data-urlencode "paneKey=$ORCA_PANE_KEY" --data-urlencode "tabId=$ORCA_TAB_ID" --data-urlencode 'payload@-'`;
    // Claude in an auto mode: PermissionRequest for a tool it then runs at once, no menu drawn.
    const agent = `const { execSync } = require('child_process');
      const post = (cmd) => execSync(cmd);
      const steps = JSON.parse(process.env.STEPS);
      process.stdout.write('\\x1b]0;✳ Claude Code\\x07');
      post(steps[0]); process.stdout.write('• Working\\r\\n');
      post(steps[1]);
      setTimeout(() => { post(steps[2]); process.stdout.write('ran ls\\r\\n');
        setTimeout(() => { post(steps[3]); process.stdout.write('> '); }, 3000); }, 200);
      setTimeout(() => {}, 60000);`;
    const steps = [
      post('UserPromptSubmit', ',"prompt":"go"'),
      post('PermissionRequest', ',"tool_name":"Bash","tool_input":{"command":"ls"}'),
      post('PostToolUse', ',"tool_name":"Bash"'),
      post('Stop'),
    ];
    const pane = await host.createPane({
      argv: [process.execPath, '-e', agent],
      cwd: root,
      env: { STEPS: JSON.stringify(steps) },
    });
    await until('the turn ended', () => host.showPane(pane.handle).status === 'idle', { timeoutMs: 30_000 }).catch(
      (error) => {
        throw new Error(`${(error as Error).message}: ${JSON.stringify(host.showPane(pane.handle))}`);
      },
    );
    // Longer than the dialog grace the engine waits for before it looks at the screen again.
    await new Promise((r) => setTimeout(r, 2_500));
    const explained = await host.notify.explain(pane.handle, { limit: 20, replay: false });
    expect(explained.some((t) => t.to === 'permission' && !t.explanation.screenShowsPrompt)).toBe(true);
    expect(hook.seen).toEqual([]);
  }, 60_000);

  it('a receiver that answers 500, then is down, then comes back gets every alert exactly once; the log shows the retries', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-notify-retry-'));
    const hook = await receiver();
    hook.answer(500);
    const host = await hostWith(root, {
      rules: [{ on: 'waiting', sinks: ['hook'] }],
      sinks: { hook: { type: 'webhook', url: hook.url } },
    });
    const agent = await demoPane(host, root, { tool: 'keyword:deploy' });
    await host.dispatchInject(agent.handle, 'deploy one');
    await until('a 500 answered', () => hook.seen.length >= 1);
    // Down: nothing listens on its port for a while.
    const port = hook.port;
    await hook.close();
    host.send(agent.handle, 'y');
    await until('idle again', () => host.showPane(agent.handle).status === 'idle', { timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 3_000));
    const back = await receiver(port);
    await until('both delivered', () => back.events.length === 2, { timeoutMs: 60_000 });
    expect(back.events.map((e) => e.kind)).toEqual(['waiting', 'resolved']);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(new Set(back.events.map((e) => e.id)).size).toBe(2);
    expect(back.events).toHaveLength(2);
    const attempts = host.notify.log(100).filter((a) => a.kind === 'waiting');
    expect(attempts[0]).toMatchObject({ outcome: 'retrying', status: 500 });
    expect(attempts.some((a) => a.outcome === 'retrying' && a.status === null && a.error)).toBe(true);
    expect(attempts.at(-1)).toMatchObject({ outcome: 'delivered', status: 200 });
  }, 120_000);

  it('an error exit alerts the error rule; notify test reports how each sink ended', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-notify-error-'));
    const hook = await receiver();
    const host = await hostWith(root, {
      rules: [{ on: 'error', sinks: ['hook'] }],
      sinks: { hook: { type: 'webhook', url: hook.url }, desk: { type: 'desktop' } },
    });
    const pane = await host.createPane({ argv: ['/bin/sh', '-c', 'sleep 0.5; exit 3'], cwd: root, name: 'quitter' });
    await until('the error alert', () => hook.events.some((e) => e.kind === 'error'));
    expect(hook.events[0]).toMatchObject({ handle: pane.handle, name: 'quitter' });
    expect(hook.events[0]?.text).toMatch(/ended: exit 3/);
    const results = await host.notify.test();
    expect(results.find((r) => r.sink === 'hook')).toMatchObject({ outcome: 'delivered' });
    const desk = results.find((r) => r.sink === 'desk');
    if (process.env.DBUS_SESSION_BUS_ADDRESS) expect(desk?.outcome).not.toBe('skipped');
    else expect(desk).toMatchObject({ outcome: 'skipped', error: expect.stringMatching(/no session bus/) });
  }, 60_000);
});
