import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENT_IDS } from '@orca/hook-templates/agents';
import { type AgentInstallReport, createHost, type Host, type PaneView } from '@orca/host';
import { linkAgentCommand, resolveAgentBinary } from '../agents/binaries.ts';
import type { AgentProfile, SeedContext } from '../agents/profile.ts';
import { LAB_PANE_COLS, LAB_PANE_ROWS, SCREEN_POLL_MS } from '../limits.ts';
import type { ModelServer } from '../model/loopback-server.ts';
import type { ReplyPicker } from '../model/scenario.ts';
import { endStrayProcesses } from './stray-processes.ts';

/** Options of {@link startLabRun}. */
export interface LabRunOptions {
  readonly profile: AgentProfile;
  /** The model's replies, made once the run's project directory exists (tools take absolute paths). */
  readonly replies: (paths: { readonly project: string }) => ReplyPicker;
  /** Pre-accept the workspace-trust question (default true). */
  readonly trustProject?: boolean;
  /** Pre-approve the API key (Claude; default true). */
  readonly approveApiKey?: boolean;
  /** Ask before tools run (default true). */
  readonly permissionPrompts?: boolean;
  /** Install the managed hooks through the host before the agent starts (default true). */
  readonly installHooks?: boolean;
  /** Runs after the hooks are installed and before the agent starts (to age or break its state). */
  readonly beforeStart?: (ctx: SeedContext) => void;
  /** An npm prefix holding another release of the build's package (`drift`); default: the lab's pin. */
  readonly packagesDir?: string;
}

/** One real agent CLI in a pane of a real in-process host, against its model stand-in. */
export interface LabRun {
  /** The host now (a new one after {@link restartHost}). */
  readonly host: Host;
  /** The host's data directory. */
  readonly dataDir: string;
  readonly handle: string;
  readonly server: ModelServer;
  readonly ctx: SeedContext;
  readonly profile: AgentProfile;
  readonly version: string;
  readonly installReports: readonly AgentInstallReport[];
  /** Bytes the host wrote into the pane's PTY (keys, pastes, injections). */
  readonly bytesWritten: () => number;
  /** The rendered viewport rows. */
  screen(): readonly string[];
  screenText(): string;
  /** The retained raw tail (ANSI included). */
  rawTail(): string;
  view(): PaneView;
  /** Types raw keys into the pane (`\r` Enter, `\x1b` Esc, `\x1b[B` Down). */
  press(keys: string): void;
  /** Resolves once `test` holds for the screen text; rejects after `timeoutMs` naming `what`. */
  waitForScreen(test: RegExp | ((text: string) => boolean), timeoutMs: number, what: string): Promise<void>;
  /** Hook event names the host ingested for this pane, oldest first. */
  hookEvents(): string[];
  /** Every title the agent set, with its arrival time (ms since the epoch). */
  titles(): readonly { text: string; at: number }[];
  /** Hook events with their arrival times. */
  hookTimeline(): { event: string; at: number }[];
  /**
   * Stops the host (its panes end with it, as a host restart does today) and starts a new one on
   * the same data directory; the old pane's handle stays in the store.
   */
  restartHost(): Promise<Host>;
  stop(): Promise<void>;
}

function mkTemp(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/**
 * Starts the model stand-in, seeds a temp home, starts a host on a temp data dir (hooks
 * installed by that host with the versions it detected), and runs the agent in a pane.
 */
export async function startLabRun(opts: LabRunOptions): Promise<LabRun> {
  const { profile } = opts;
  const root = mkTemp(`orca-lab-${profile.agent}-`);
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  const dataDir = path.join(root, 'data');
  const bin = path.join(root, 'bin');
  for (const dir of [home, project]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(project, 'README.md'), '# lab project\n');
  const binary = resolveAgentBinary(profile.build, opts.packagesDir);
  linkAgentCommand(bin, binary);
  const server = await profile.startServer(opts.replies({ project }));
  const ctx: SeedContext = {
    home,
    project,
    server,
    trustProject: opts.trustProject ?? true,
    approveApiKey: opts.approveApiKey ?? true,
    permissionPrompts: opts.permissionPrompts ?? true,
  };
  profile.seedHome(ctx);
  const baseEnv = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    USER: process.env.USER ?? 'lab',
    LANG: 'C.UTF-8',
    SHELL: '/bin/sh',
    TMPDIR: os.tmpdir(),
  };
  let host = await createHost({ dataDir, baseEnv, home });
  let installReports: AgentInstallReport[] = [];
  try {
    // Why: an agent the registry has no hooks for runs unhooked (its tour then proves title and screen rules).
    if (opts.installHooks !== false && (AGENT_IDS as readonly string[]).includes(profile.agent)) {
      installReports = await host.installHooks({ home, agents: [profile.agent] });
      const failed = installReports.find((r) => r.error);
      if (failed?.error) throw new Error(`hook install for ${failed.agent} failed: ${failed.error.message}`);
    }
  } catch (error) {
    await host.stop();
    await server.close();
    throw error;
  }
  opts.beforeStart?.(ctx);
  const pane = await host.createPane({
    argv: profile.argv(ctx),
    cwd: project,
    env: profile.env(ctx),
    cols: LAB_PANE_COLS,
    rows: LAB_PANE_ROWS,
  });
  const live = host.livePane(pane.handle);
  let written = 0;
  // Why: the host's every write into the PTY goes through LivePane.write; counting there proves
  // "zero bytes" for a refused injection without trusting the host's own report.
  const write = live.write.bind(live);
  live.write = (data: string) => {
    written += Buffer.byteLength(data);
    write(data);
  };
  const screen = () => live.screen.renderedRows();
  const titles: { text: string; at: number }[] = [];
  live.screen.onTitle((t) => titles.push({ text: t.text, at: t.at }));
  const run: LabRun = {
    get host() {
      return host;
    },
    dataDir,
    handle: pane.handle,
    server,
    ctx,
    profile,
    version: binary.version,
    installReports,
    bytesWritten: () => written,
    screen,
    screenText: () => screen().join('\n'),
    rawTail: () => live.screen.tail(),
    view: () => host.showPane(pane.handle),
    press(keys) {
      live.write(keys);
    },
    async waitForScreen(test, timeoutMs, what) {
      const ok = typeof test === 'function' ? test : (t: string) => test.test(t);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await live.screen.settled();
        if (ok(run.screenText())) return;
        if (live.exit && !ok(run.screenText())) {
          throw new Error(
            `${profile.build}: exited (${JSON.stringify(live.exit)}) before ${what}\n${run.screenText()}`,
          );
        }
        if (Date.now() > deadline) {
          throw new Error(`${profile.build}: no ${what} within ${timeoutMs} ms; screen:\n${run.screenText()}`);
        }
        await new Promise((r) => setTimeout(r, SCREEN_POLL_MS));
      }
    },
    hookEvents: () => host.store.hookRows(pane.paneKey).map((r) => r.hookEventName ?? '?'),
    titles: () => titles,
    hookTimeline: () =>
      host.store.hookRows(pane.paneKey).map((r) => ({ event: r.hookEventName ?? '?', at: r.receivedAt })),
    async restartHost() {
      await host.stop();
      host = await createHost({ dataDir, baseEnv, home });
      return host;
    },
    async stop() {
      if (!live.exit) live.process.kill('SIGKILL');
      await host.stop();
      await server.close();
      endStrayProcesses(root);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return run;
}
