import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectRuntime, openStore, type PaneView } from '@orca/host';
import { afterEach, describe, expect, it } from 'vitest';
import { linkAgentCommand, resolveAgentBinary } from '../src/agents/binaries.ts';
import type { SeedContext } from '../src/agents/profile.ts';
import {
  followPane,
  type HostProcess,
  keeperPidOf,
  labProcessEnv,
  type RemotePane,
  runOrcaSync,
  startHostProcess,
} from '../src/harness/process-host.ts';
import { endStrayProcesses } from '../src/harness/stray-processes.ts';
import type { ModelServer } from '../src/model/loopback-server.ts';
import { byPrompt } from '../src/model/scenario.ts';
import { profileFor, screensFor } from '../src/scenarios/index.ts';
import { reachIdle } from '../src/scenarios/tour.ts';
import { storyText } from '../src/scenarios/tour-replies.ts';
import { TOUR_TIMEOUT_MS } from '../src/scenarios/tour-test.ts';

/** One row of the closing table: agent × case → outcome and time to a correct status. */
interface Row {
  build: string;
  version: string;
  case: string;
  outcome: string;
  statusAfterMs: number | null;
}
const table: Row[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** The agent's own "turn ended" hook. */
const TURN_END: Record<string, string> = { claude: 'Stop', codex: 'Stop', gemini: 'AfterAgent' };
const PROMPT_HOOK: Record<string, string> = {
  claude: 'UserPromptSubmit',
  codex: 'UserPromptSubmit',
  gemini: 'BeforeAgent',
};

function mkTemp(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Share of the non-blank lines of `before` that `after` shows too. */
function screenOverlap(before: string, after: string): number {
  const lines = before
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const shown = new Set(after.split('\n').map((l) => l.trim()));
  return lines.length === 0 ? 1 : lines.filter((l) => shown.has(l)).length / lines.length;
}

async function untilView(
  pane: RemotePane,
  test: (v: PaneView) => boolean,
  timeoutMs: number,
  what: string,
): Promise<PaneView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await pane.refresh().catch(() => null);
    if (v && test(v)) return v;
    if (Date.now() > deadline)
      throw new Error(`no ${what} within ${timeoutMs} ms: ${JSON.stringify(v)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function killAndWait(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const check = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        clearInterval(check);
        resolve();
      }
    }, 50);
  });
}

describe.each(['claude', 'codex', 'gemini'])('agents outlive the host: %s', (build) => {
  it(
    'mid-turn, the host SIGKILLed and started again: same pid, same screen, right status, the turn ends with its hooks stored once; then the keeper gone too: orca start --resume continues the session',
    async () => {
      const profile = profileFor(build);
      const root = mkTemp(`orca-lab-kept-${profile.agent}-`);
      const home = path.join(root, 'home');
      const project = path.join(root, 'project');
      const bin = path.join(root, 'bin');
      const dataDir = path.join(root, 'data');
      for (const d of [home, project]) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(project, 'README.md'), '# lab project\n');
      const binary = resolveAgentBinary(profile.build);
      linkAgentCommand(bin, binary);
      const tag = `${build}${Date.now().toString(36)}`;
      const slow = `${tag} slow task please`;
      const recall = `${tag} what did I ask first`;
      const server: ModelServer = await profile.startServer(
        byPrompt({
          [slow]: [{ kind: 'slow-text', text: storyText(5), seconds: 14 }],
          [recall]: [{ kind: 'text', text: 'You asked for a slow task.' }],
        }),
      );
      const env = labProcessEnv(bin, home);
      const hosts: HostProcess[] = [];
      const panes: RemotePane[] = [];
      cleanups.push(async () => {
        for (const p of panes) p.close();
        runOrcaSync(['--data-dir', dataDir, 'stop', '--all'], env);
        for (const h of hosts) await killAndWait(h.pid);
        const keeper = keeperPidOf(dataDir);
        if (keeper) await killAndWait(keeper);
        await server.close();
        endStrayProcesses(root);
        fs.rmSync(root, { recursive: true, force: true });
      });
      const ctx: SeedContext = {
        home,
        project,
        server,
        trustProject: true,
        approveApiKey: true,
        permissionPrompts: true,
      };
      profile.seedHome(ctx);
      const installed = runOrcaSync(['hooks', 'install', '--home', home, '--agents', profile.agent], env);
      expect(installed.code, installed.stderr).toBe(0);

      let host = await startHostProcess(dataDir, env);
      hosts.push(host);
      expect(host.ready.keeperPid).toEqual(expect.any(Number));
      const rpc = await connectRuntime(dataDir);
      const { handle } = await rpc
        .call('terminal.create', {
          argv: profile.argv(ctx),
          cwd: project,
          name: 'kept',
          env: profile.env(ctx),
        })
        .finally(() => rpc.close());
      const pane = await followPane(dataDir, handle, profile);
      panes.push(pane);
      const screens = screensFor(profile.agent);
      await reachIdle(pane.run, screens);

      // Mid-turn: the prompt taken, the reply streaming slowly.
      const receipt = await pane.client().call('terminal.dispatch', {
        handle,
        inject: slow,
        timeoutMs: 60_000,
      });
      expect(receipt.submittedBy).toBe('hook');
      await server.waitFor((r) => r.role === 'main' && (r.userTurns.at(-1) ?? '').includes(slow), 30_000);
      const before = await untilView(pane, (v) => v.status === 'working', 20_000, 'working');
      await new Promise((r) => setTimeout(r, 1_500));
      const beforeKill = await pane.refresh();

      // 1. The host is SIGKILLed and started again.
      await killAndWait(host.pid);
      const restartAt = Date.now();
      host = await startHostProcess(dataDir, env);
      hosts.push(host);
      await pane.reconnect(dataDir);
      const taken = await untilView(pane, (v) => v.status === 'working', 5_000, 'the right status within 5 s');
      const statusAfterMs = Date.now() - restartAt;
      expect(taken).toMatchObject({ pid: before.pid, kept: true, isRunningAgent: true });
      expect(taken.exited).toBeUndefined();
      const overlap = screenOverlap(beforeKill.tail ?? '', taken.tail ?? '');
      expect(overlap).toBeGreaterThanOrEqual(0.6);
      await untilView(pane, (v) => v.status === 'idle', 60_000, 'the turn to end under the new host');
      table.push({
        build,
        version: binary.version,
        case: 'host SIGKILL mid-turn',
        outcome: `same pid ${taken.pid}; screen lines kept ${(overlap * 100).toFixed(0)}%; turn ended idle`,
        statusAfterMs,
      });

      // 2. A clean host restart (orca stop, keeper kept): taken over again.
      expect(runOrcaSync(['--data-dir', dataDir, 'stop'], env).code).toBe(0);
      const stopAt = Date.now();
      host = await startHostProcess(dataDir, env);
      hosts.push(host);
      await pane.reconnect(dataDir);
      const again = await untilView(pane, (v) => v.status === 'idle' && v.isRunningAgent, 5_000, 'idle within 5 s');
      expect(again).toMatchObject({ pid: before.pid });
      table.push({
        build,
        version: binary.version,
        case: 'host restart (orca stop; orca start)',
        outcome: `same pid ${again.pid}; idle`,
        statusAfterMs: Date.now() - stopAt,
      });

      // The turn's hooks, stored once across both restarts.
      runOrcaSync(['--data-dir', dataDir, 'stop'], env);
      const store = openStore(path.join(dataDir, 'orca.sqlite'));
      const rows = store.hookRows(before.paneKey);
      store.close();
      const promptRows = rows.filter(
        (r) => r.hookEventName === PROMPT_HOOK[profile.agent] && JSON.stringify(r.envelope).includes(slow),
      );
      const turnEnds = rows.filter((r) => r.hookEventName === TURN_END[profile.agent]);
      expect(promptRows).toHaveLength(1);
      expect(turnEnds.filter((r) => r.receivedAt > (promptRows[0]?.receivedAt ?? 0))).toHaveLength(1);
      const sessionOf = (r: (typeof rows)[number]) =>
        (r.envelope.payload as { session_id?: string; permission_mode?: string } | undefined) ?? {};
      const firstSession = sessionOf(promptRows[0] as (typeof rows)[number]);

      // 3. The keeper gone too (a reboot): every process is killed; orca start --resume continues.
      const keeper = keeperPidOf(dataDir);
      await killAndWait(keeper as number);
      endStrayProcesses(root);
      const resumeAt = Date.now();
      host = await startHostProcess(dataDir, env, ['--resume']);
      hosts.push(host);
      await pane.reconnect(dataDir);
      const resumeLine = await (async () => {
        for (
          const deadline = Date.now() + 30_000;
          Date.now() < deadline;
          await new Promise((r) => setTimeout(r, 100))
        ) {
          const line = host.lines().find((l) => l.startsWith('{"resume"'));
          if (line)
            return JSON.parse(line) as {
              resume: { resumed: { from: string; to: PaneView; argv: string[] }[]; skipped: unknown[] };
            };
        }
        throw new Error(`no resume report: ${host.lines().join('\n')}`);
      })();
      expect(resumeLine.resume.skipped).toEqual([]);
      const [resumed] = resumeLine.resume.resumed;
      expect(resumed?.from).toBe(handle);
      expect(resumed?.argv).toContain(firstSession.session_id);
      // The original launch flags (the permission mode above all) are in the resume command.
      for (const flag of profile
        .argv(ctx)
        .slice(1)
        .filter((a) => a.startsWith('-')))
        expect(resumed?.argv).toContain(flag);
      const next = await followPane(dataDir, resumed?.to.handle as string, profile);
      panes.push(next);
      await reachIdle(next.run, screens);
      const resumedIdleMs = Date.now() - resumeAt;
      const before2 = server.requests.length;
      await next.client().call('terminal.dispatch', { handle: next.handle, inject: recall, timeoutMs: 60_000 });
      const request = await server.waitFor(
        (r) => r.role === 'main' && (r.userTurns.at(-1) ?? '').includes(recall),
        30_000,
      );
      expect(server.requests.indexOf(request)).toBeGreaterThanOrEqual(before2);
      // The resumed session, not a new one: the model sees the earlier prompt in the conversation.
      expect(request.userTurns.some((t) => t.includes(slow))).toBe(true);
      runOrcaSync(['--data-dir', dataDir, 'stop'], env);
      const store2 = openStore(path.join(dataDir, 'orca.sqlite'));
      const nextRows = store2.hookRows((store2.getPane(next.handle) as { paneKey: string }).paneKey);
      store2.close();
      const resumedPrompt = nextRows.find((r) => JSON.stringify(r.envelope).includes(recall));
      expect(sessionOf(resumedPrompt as (typeof rows)[number]).session_id).toBe(firstSession.session_id);
      if (firstSession.permission_mode !== undefined) {
        expect(sessionOf(resumedPrompt as (typeof rows)[number]).permission_mode).toBe(firstSession.permission_mode);
      }
      table.push({
        build,
        version: binary.version,
        case: 'keeper gone (host and keeper SIGKILL), orca start --resume',
        outcome: `resumed as ${next.handle} with session ${String(firstSession.session_id).slice(0, 8)}…; the model saw the earlier prompt; permission mode ${firstSession.permission_mode ?? '(not in its hooks)'}`,
        statusAfterMs: resumedIdleMs,
      });
    },
    TOUR_TIMEOUT_MS,
  );
});

describe('keeper results', () => {
  it('are kept for the closing table', () => {
    const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../captures');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'keeper.json'), `${JSON.stringify(table, null, 2)}\n`);
    console.log(table.map((r) => `${r.build} ${r.version}\t${r.case}\t${r.outcome}\t${r.statusAfterMs} ms`).join('\n'));
    expect(table.length).toBeGreaterThan(0);
  });
});
