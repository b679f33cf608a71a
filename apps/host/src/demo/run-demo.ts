import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printableField } from '@orca/shared/printable';
import { installHooks } from '../agent-hooks/install-hooks.ts';
import { DEMO_TIMEOUT_MS } from '../constants.ts';
import { HostError, isRefusal } from '../errors.ts';
import { createHost, type Host, type VerdictChange } from '../host/host.ts';
import type { Verdict } from '../panes/live-pane.ts';
import { silentLogger } from '../runtime/logger.ts';
import { demoAgentPath } from './demo-agent-path.ts';

/** One line of demo output (also the `--json` record). */
export type DemoEvent =
  | { kind: 'start'; dataDir: string; home: string; hookPort: number }
  | { kind: 'hooks-installed'; files: { path: string; action: string }[] }
  | { kind: 'pane'; handle: string; argv: string[] }
  | { kind: 'verdict'; handle: string; at: number; verdict: Verdict }
  | { kind: 'inject'; prompt: string; ok: true; bytes: number }
  | { kind: 'inject'; prompt: string; ok: false; code: string; bytesWritten: number }
  | { kind: 'answer'; text: string }
  | { kind: 'exit'; code: number | null; signal: number | null }
  | { kind: 'done'; verdictChanges: number; hookEvents: number; ok: boolean };

/** Options of {@link runDemo}. */
export interface DemoOptions {
  readonly print: (event: DemoEvent) => void;
  readonly timeoutMs?: number;
  /** Keep the temporary directory (for inspection); default remove it. */
  readonly keep?: boolean;
}

/** The Claude Code version the demo agent impersonates (registers PermissionRequest hooks). */
const DEMO_CLAUDE_VERSION = '2.1.80';
const DEMO_PROMPT = 'run the tests verbosely';
const BLOCKED_PROMPT = 'also update the docs';

function waitForVerdict(host: Host, handle: string, pred: (v: Verdict) => boolean, what: string, ms: number) {
  return new Promise<Verdict>((resolve, reject) => {
    const current = host.livePane(handle).verdict;
    if (current && pred(current)) {
      resolve(current);
      return;
    }
    const timer = setTimeout(() => {
      off();
      reject(new HostError('ORCA_HOST_DEMO', `the demo agent never reached "${what}" within ${ms / 1000} s`));
    }, ms);
    const off = host.onVerdict((change: VerdictChange) => {
      if (change.handle === handle && pred(change.verdict)) {
        clearTimeout(timer);
        off();
        resolve(change.verdict);
      }
    });
  });
}

/**
 * `orca demo`: a host in a temporary data directory, Claude-dialect hooks installed into a
 * temporary home by `@orca/hook-templates`, the bundled demo agent in a real PTY firing them
 * through real curl; prints every verdict change, injects a prompt (guarded), sees a second
 * injection refused while the approval menu is up (zero bytes written), answers the menu, and
 * exits. Resolves true when every step happened.
 *
 * @example
 * const ok = await runDemo({ print: (e) => console.log(e) });
 */
export async function runDemo(opts: DemoOptions): Promise<boolean> {
  const timeoutMs = opts.timeoutMs ?? DEMO_TIMEOUT_MS;
  const root = mkdtempSync(join(tmpdir(), 'orca-demo-'));
  const dataDir = join(root, 'data');
  const home = join(root, 'home');
  const echoLog = join(root, 'agent-input.log');
  writeFileSync(echoLog, '');
  const host = await createHost({ dataDir, logger: silentLogger() });
  let changes = 0;
  try {
    opts.print({ kind: 'start', dataDir, home, hookPort: host.endpoint.port });
    const reports = await installHooks({ home, agents: ['claude'], agentVersions: { claude: DEMO_CLAUDE_VERSION } });
    const failed = reports.find((r) => r.error);
    if (failed?.error)
      throw new HostError('ORCA_HOST_DEMO', `installing the demo hooks failed: ${failed.error.message}`);
    opts.print({
      kind: 'hooks-installed',
      files: reports.flatMap((r) => r.files.map((f) => ({ path: f.path, action: f.action }))),
    });

    const argv = [process.execPath, demoAgentPath()];
    const view = await host.createPane({
      argv,
      cwd: home,
      name: 'demo-agent',
      env: { HOME: home, ORCA_DEMO_ECHO_LOG: echoLog },
    });
    const handle = view.handle;
    host.onVerdict((change) => {
      if (change.handle !== handle) return;
      changes += 1;
      opts.print({ kind: 'verdict', handle, at: change.at, verdict: change.verdict });
    });
    opts.print({ kind: 'pane', handle, argv });

    const step = Math.max(1000, Math.floor(timeoutMs / 4));
    await waitForVerdict(host, handle, (v) => v.isRunningAgent && v.status === 'idle', 'idle agent', step);
    const injected = await host.dispatchInject(handle, DEMO_PROMPT);
    opts.print({ kind: 'inject', prompt: DEMO_PROMPT, ok: true, bytes: injected.bytes });

    await waitForVerdict(host, handle, (v) => v.status === 'permission', 'waiting for approval', step);
    const before = readFileSync(echoLog, 'utf8').length;
    try {
      await host.dispatchInject(handle, BLOCKED_PROMPT);
      throw new HostError('ORCA_HOST_DEMO', 'an injection into a pane waiting for approval was not refused');
    } catch (error) {
      if (!isRefusal(error)) throw error;
      const written = readFileSync(echoLog, 'utf8').length - before;
      opts.print({ kind: 'inject', prompt: BLOCKED_PROMPT, ok: false, code: error.code, bytesWritten: written });
      if (written !== 0) throw new HostError('ORCA_HOST_DEMO', `a refused injection wrote ${written} bytes`);
    }

    host.send(handle, 'y');
    opts.print({ kind: 'answer', text: 'y' });
    await waitForVerdict(host, handle, (v) => v.status === 'working', 'working after approval', step);
    await waitForVerdict(host, handle, (v) => v.isRunningAgent && v.status === 'idle', 'idle after the turn', step);

    host.send(handle, '/exit\r');
    const waited = await host.wait(handle, 'exit', step);
    opts.print({ kind: 'exit', code: waited.exit?.code ?? null, signal: waited.exit?.signal ?? null });
    const ok = waited.exit?.code === 0;
    opts.print({ kind: 'done', verdictChanges: changes, hookEvents: host.store.countHookRows(), ok });
    return ok;
  } finally {
    await host.stop();
    if (!opts.keep) rmSync(root, { recursive: true, force: true });
  }
}

function time(at: number): string {
  return new Date(at).toISOString().slice(11, 23);
}

const p = printableField;

function describeWait(v: Verdict): string {
  if (!('agentWait' in v)) return 'agentWait absent';
  if (v.agentWait === null || v.agentWait === undefined) return 'agentWait null';
  const w = v.agentWait;
  return `agentWait ${p(String(w.source))}${w.reason ? ` ${p(String(w.reason))}` : ''}`;
}

/** Human-readable line for one demo event (paths, argv, prompts and hook fields escaped). */
export function formatDemoEvent(e: DemoEvent): string {
  switch (e.kind) {
    case 'start':
      return `orca demo: host in ${p(e.dataDir)}, hook listener on 127.0.0.1:${e.hookPort}`;
    case 'hooks-installed':
      return `hooks installed into the demo home: ${e.files.map((f) => `${p(f.action)} ${p(f.path)}`).join(', ')}`;
    case 'pane':
      return `pane ${p(e.handle)}: ${e.argv.map(p).join(' ')}`;
    case 'verdict':
      return `  ${time(e.at)}  ${p(String(e.verdict.status)).padEnd(10)} ${e.verdict.isRunningAgent ? 'agent' : 'no agent'}  ${describeWait(e.verdict)}`;
    case 'inject':
      return e.ok
        ? `dispatch --inject "${p(e.prompt)}": written (${e.bytes} bytes)`
        : `dispatch --inject "${p(e.prompt)}": refused ${p(e.code)} (${e.bytesWritten} bytes written)`;
    case 'answer':
      return `answering the approval menu: ${p(e.text)}`;
    case 'exit':
      return `demo agent exited with code ${e.code}${e.signal ? ` (signal ${e.signal})` : ''}`;
    case 'done':
      return e.ok
        ? `demo ok: ${e.verdictChanges} verdict changes, ${e.hookEvents} hook events ingested`
        : 'demo FAILED';
  }
}
