import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endKeeper, until } from '@orca/testkit';
import { describe, expect, it } from 'vitest';
import { demoAgentPath } from '../src/demo/demo-agent-path.ts';
import type { PaneView } from '../src/panes/pane-view.ts';
import { connectRuntime } from '../src/rpc/client.ts';
import { runOrca, startOrca } from './cli-process.ts';

// Why: each test runs about 20 real `orca` processes (each a Node start from source): ~70 s on an
// idle 2-core machine, and over 180 s when that machine is loaded; the bound is generous, not tight.
const CLI_TEST_TIMEOUT_MS = 480_000;

describe('orca start and signals', () => {
  it('the same SIGTERM delivered twice (a process group, a relaying wrapper) still ends in a clean shutdown', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-signal-')), 'data');
    // Why: the PTYs in the host's own process, whose SIGHUP grace keeps the shutdown busy.
    const host = await startOrca(dataDir, ['--no-keeper']);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(true);
    // Why: a pane that ignores SIGHUP keeps the shutdown busy for its PTY grace, so the second
    // signal lands while the host is shutting down, as a relayed or group signal does.
    const run = await runOrca(['--data-dir', dataDir, 'run', '--cwd', '/', '--', 'sh', '-c', "trap '' HUP; sleep 60"]);
    expect(run.code).toBe(0);
    process.kill(host.ready.pid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    process.kill(host.ready.pid, 'SIGTERM');
    expect(await host.exited()).toBe(0);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    await endKeeper(dataDir);
  });
});

describe('orca start + the runtime RPC (real CLI processes, real PTY, generated hooks, real curl)', () => {
  it(
    'hook → verdict in terminal show; injection refused at the menu with zero bytes; tui-idle; restart keeps rows',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'orca-e2e-'));
      const dataDir = join(root, 'data');
      const home = join(root, 'home');
      const echoLog = join(root, 'input.log');
      writeFileSync(echoLog, '');
      const orca = (...args: string[]) => runOrca(['--json', '--data-dir', dataDir, ...args]);

      expect((await runOrca(['--json', 'hooks', 'install', '--home', home, '--agents', 'claude'])).code).toBe(0);
      const notRunning = await orca('ls');
      expect(notRunning.code).toBe(1);
      expect(JSON.parse(notRunning.stdout)).toMatchObject({ error: { code: 'ORCA_HOST_NOT_RUNNING' } });

      const host = await startOrca(dataDir);
      const second = await runOrca(['--data-dir', dataDir, 'start']);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`pid ${host.ready.pid}`);

      const created = await orca(
        'run',
        '--cwd',
        home,
        '--',
        'env',
        `HOME=${home}`,
        `ORCA_DEMO_ECHO_LOG=${echoLog}`,
        process.execPath,
        demoAgentPath(),
      );
      expect(created.code).toBe(0);
      const handle = (JSON.parse(created.stdout) as PaneView).handle;
      // Polling goes through the same runtime socket in-process (a CLI spawn per poll is slow); the
      // CLI's own `terminal show` is checked once below.
      let client = await connectRuntime(dataDir);
      const show = () => client.call('terminal.show', { handle });

      // SessionStart fired by the generated script through curl → an idle agent.
      const idle = await until('idle agent', async () => {
        const v = await show();
        return v.status === 'idle' && v.isRunningAgent ? v : undefined;
      });
      expect(idle).toMatchObject({ handle, status: 'idle', isRunningAgent: true, agentWait: null });
      const shown = await orca('terminal', 'show', handle);
      expect(JSON.parse(shown.stdout)).toMatchObject({ handle, status: 'idle', isRunningAgent: true, agentWait: null });
      await until('composer', async () => ((await show()).tail?.includes('\u276f') ? true : undefined));

      const idleWait = await orca('terminal', 'wait', handle, '--for', 'tui-idle', '--timeout', '20');
      expect(idleWait.code).toBe(0);
      expect(JSON.parse(idleWait.stdout)).toEqual({ satisfied: true });

      const injected = await orca('dispatch', handle, '--inject', 'run the tests');
      expect(injected.code).toBe(0);
      await until('approval menu', async () => ((await show()).status === 'permission' ? true : undefined));
      const before = readFileSync(echoLog, 'utf8');
      const refused = await orca('dispatch', handle, '--inject', 'sneak this in');
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'agent_prompt_blocked', refused: true } });
      expect(readFileSync(echoLog, 'utf8')).toBe(before);
      const blocked = await orca('terminal', 'wait', handle, '--for', 'tui-idle', '--timeout', '20');
      expect(blocked.code).toBe(1);
      expect(JSON.parse(blocked.stdout)).toEqual({ satisfied: false, blockedReason: 'agent-approval-prompt' });

      expect((await orca('terminal', 'send', handle, 'y')).code).toBe(0);
      await until('idle after the turn', async () => {
        const v = await show();
        return v.status === 'idle' && !v.tail?.includes('Do you want to proceed?') ? true : undefined;
      });
      // Blocked, then satisfied: once the menu is answered, the same wait is satisfied again.
      const idleAgain = await orca('terminal', 'wait', handle, '--for', 'tui-idle', '--timeout', '20');
      expect({ code: idleAgain.code, result: JSON.parse(idleAgain.stdout) }).toEqual({
        code: 0,
        result: { satisfied: true },
      });

      // The host stops; the agent keeps running in the PTY keeper, and the next host takes it over.
      const { pid } = await show();
      expect(pid).toBeGreaterThan(0);
      client.close();
      expect(await host.stop({ keeper: 'keep' })).toBe(0);
      const restarted = await startOrca(dataDir);
      client = await connectRuntime(dataDir);
      try {
        const after = await until('the agent taken over, its verdict rebuilt', async () => {
          const v = await show();
          return v.status === 'idle' ? v : undefined;
        });
        expect(after).toMatchObject({ handle, status: 'idle', isRunningAgent: true, agentWait: null, pid });
        expect(after.exited).toBeUndefined();
        expect(after.tail).toContain('All 12 tests pass');
        const endpoint = readFileSync(join(dataDir, 'agent-hooks', 'endpoint.env'), 'utf8');
        expect(endpoint).toContain(`ORCA_AGENT_HOOK_PORT=${restarted.ready.hookPort}\n`);
      } finally {
        client.close();
        expect(await restarted.stop()).toBe(0);
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('orca queue (real CLI processes against orca start)', () => {
  it(
    'dispatch --queue returns the id at once; queue ls, mv, rm and wait with --json and human lines; exit codes',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'orca-cli-queue-'));
      const dataDir = join(root, 'data');
      const home = join(root, 'home');
      const turns = join(root, 'turns.jsonl');
      writeFileSync(turns, '');
      const orca = (...args: string[]) => runOrca(['--data-dir', dataDir, ...args]);
      const json = (...args: string[]) => runOrca(['--json', '--data-dir', dataDir, ...args]);
      expect((await runOrca(['hooks', 'install', '--home', home, '--agents', 'claude'])).code).toBe(0);
      const host = await startOrca(dataDir);
      try {
        const created = await json(
          'run',
          '--cwd',
          home,
          '--',
          'env',
          `HOME=${home}`,
          'ORCA_DEMO_TOOL=keyword:deploy',
          'ORCA_DEMO_REPLY_MS=200',
          `ORCA_DEMO_PROMPT_LOG=${turns}`,
          process.execPath,
          demoAgentPath(),
        );
        const handle = (JSON.parse(created.stdout) as PaneView).handle;
        const client = await connectRuntime(dataDir);
        try {
          await until('the agent idle', async () => {
            const v = await client.call('terminal.show', { handle });
            return v.isRunningAgent && v.status === 'idle';
          });
          // The agent stops at a permission menu: queued prompts wait behind it.
          expect((await orca('dispatch', handle, '--inject', 'deploy it')).code).toBe(0);
          await until('the menu', async () => (await client.call('terminal.show', { handle })).status === 'permission');
        } finally {
          client.close();
        }
        const first = await json('dispatch', handle, '--inject', 'first after the menu', '--queue');
        expect(first.code).toBe(0);
        const a = JSON.parse(first.stdout) as { id: number; state: string; position: number };
        expect(a).toMatchObject({
          state: 'queued',
          position: 1,
          handle,
          prompt: 'first after the menu',
          source: 'cli',
        });
        const second = await orca(
          'dispatch',
          handle,
          '--inject',
          'second after the menu',
          '--queue',
          '--expires',
          '10m',
        );
        expect(second.stdout).toMatch(new RegExp(`^queued (\\d+) \\(#2 for ${handle}\\)\\n$`));
        const b = Number(/^queued (\d+)/.exec(second.stdout)?.[1]);
        const third = await json('dispatch', handle, '--inject', 'third, to be removed', '--queue');
        const c = (JSON.parse(third.stdout) as { id: number }).id;

        const moved = await json('queue', 'mv', String(b), '1');
        expect((JSON.parse(moved.stdout) as { items: { id: number }[] }).items.map((i) => i.id)).toEqual([b, a.id, c]);
        const removed = await orca('queue', 'rm', String(c));
        expect(removed.code).toBe(0);
        expect(removed.stdout).toMatch(
          new RegExp(`^${c}  ${handle}  cancelled \\[cancelled\\] removed from the queue  "third, to be removed"\\n$`),
        );
        const again = await json('queue', 'rm', String(c));
        expect(again.code).toBe(1);
        expect(JSON.parse(again.stdout)).toMatchObject({ error: { code: 'queue_item_not_queued', refused: true } });
        expect((await json('queue', 'rm', '999999')).code).toBe(1);
        const listed = await orca('queue', 'ls', handle);
        expect(listed.stdout.split('\n').filter(Boolean)).toEqual([
          expect.stringMatching(
            new RegExp(
              `^${b}  ${handle}  queued #1 \\(expires \\S+\\)( \\(waiting for [^)]+\\)+)?  "second after the menu"$`,
            ),
          ),
          `${a.id}  ${handle}  queued #2  "first after the menu"`,
          expect.stringMatching(new RegExp(`^${c}  ${handle}  cancelled`)),
        ]);
        // Waiting on a cancelled prompt ends at once with exit 1; a timeout is a refusal (exit 1).
        expect((await orca('queue', 'wait', String(c))).code).toBe(1);
        const timedOut = await json('queue', 'wait', String(a.id), '--timeout', '0.5');
        expect(timedOut.code).toBe(1);
        expect(JSON.parse(timedOut.stdout)).toMatchObject({ error: { code: 'timeout' } });
        // Usage errors: exit 2.
        expect((await orca('dispatch', handle, '--inject', 'x', '--expires', '5m')).code).toBe(2);
        expect((await orca('dispatch', handle, '--inject', 'x', '--queue', '--expires', 'soon')).code).toBe(2);
        expect((await orca('queue', 'rm', 'abc')).code).toBe(2);

        expect((await orca('terminal', 'send', handle, 'y')).code).toBe(0);
        const waited = await orca('queue', 'wait', String(a.id), '--timeout', '60');
        expect(waited.code).toBe(0);
        expect(waited.stdout).toMatch(/ submitted · submitted \(its prompt hook carried this prompt\), \d+ bytes: /);
        const delivered = readFileSync(turns, 'utf8')
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { prompt: string }).prompt);
        expect(delivered).toEqual(['deploy it', 'second after the menu', 'first after the menu']);
        const all = JSON.parse((await json('queue', 'ls')).stdout) as { items: { state: string }[] };
        expect(all.items.map((i) => i.state)).toEqual(['cancelled', 'submitted', 'submitted']); // finished: newest first
      } finally {
        await host.stop();
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
