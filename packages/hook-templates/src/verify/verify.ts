import { printableField } from '@orca/shared/printable';
import type { AgentDescriptor } from '../agents/descriptor.ts';
import { AGENT_LIST, protocolLineFor } from '../agents/registry.ts';
import { AGENT_IDS } from '../agents/sources.ts';
import { FORM_FIELDS } from '../emit/posix.ts';
import { isJsonObject, isManagedHandler } from '../install/hooks-edit.ts';
import { isManagedPlugin } from '../install/opencode-install.ts';
import { opencodePluginLaunch } from '../install/opencode-plugin.ts';
import { configPath, hooksDir, joinFor } from '../install/paths.ts';
import { quoteLauncherPath } from '../launchers/posix.ts';
import { decodeFormBody, trimTrailingNewlines } from './form.ts';
import type { VerifyIo, VerifyRun } from './io.ts';

/** Shells `verify` knows, in order; absent ones are skipped. */
export const VERIFY_SHELLS: Readonly<Record<string, readonly string[]>> = {
  dash: ['dash'],
  bash: ['bash', '--norc'],
  busybox: ['busybox', 'sh'],
  zsh: ['zsh', '--emulate', 'sh'],
  mksh: ['mksh'],
};

/** Payload bytes written in one write per check (≥ 1 MiB, past any pipe buffer). */
export const VERIFY_PAYLOAD_BYTES = 1024 * 1024 + 17;
/** Exit code of the stand-in script used to check propagation. */
export const VERIFY_STANDIN_EXIT_CODE = 7;

/** Options of {@link verifyHome}. */
export interface VerifyOptions {
  home: string;
  /** Shell names of {@link VERIFY_SHELLS} (default all available). */
  shells?: readonly string[];
  agents?: readonly string[];
  /** Most runs in flight. */
  concurrency?: number;
}

/** One check outcome. */
export interface VerifyCheck {
  id: string;
  ok: boolean;
  detail: string;
}

/** What `verify` found. */
export interface VerifyReport {
  ok: boolean;
  shells: string[];
  checks: VerifyCheck[];
  skipped: { id: string; reason: string }[];
}

interface Target {
  d: AgentDescriptor;
  event: string;
  command: string;
  script: string;
}

function firstManaged(container: unknown, d: AgentDescriptor): { event: string; command: string } | undefined {
  if (!isJsonObject(container)) return undefined;
  for (const event of d.events) {
    const entries = container[event];
    if (!Array.isArray(entries)) continue;
    for (const e of entries) {
      const handlers = isJsonObject(e) && Array.isArray(e.hooks) ? e.hooks : [e];
      for (const h of handlers) {
        if (!isManagedHandler(h) || !isJsonObject(h)) continue;
        const command = typeof h.command === 'string' ? h.command : typeof h.bash === 'string' ? h.bash : undefined;
        if (command !== undefined) return { event, command };
      }
    }
  }
  return undefined;
}

/** The first managed handler of a hook config's text. */
function configHandler(text: string | null, d: AgentDescriptor): { event: string; command: string } | undefined {
  let root: unknown;
  try {
    root = text === null ? undefined : JSON.parse(text);
  } catch {
    root = undefined;
  }
  if (!isJsonObject(root)) return undefined;
  return firstManaged(d.configShape === 'antigravity' ? root['orca-status'] : root.hooks, d);
}

/** What Orca's plugin file starts (`/bin/sh <script>`), when the file is Orca's. */
function pluginHandler(
  text: string | null,
  d: AgentDescriptor,
  home: string,
): { event: string; command: string } | undefined {
  if (text === null || !isManagedPlugin(text)) return undefined;
  const script = joinFor('posix', hooksDir('posix', home), `${d.scriptStem}-hook.sh`);
  const launch = opencodePluginLaunch('posix', script);
  const command = [launch.command, ...launch.args].map(quoteLauncherPath).join(' ');
  return { event: d.events[0] ?? 'SessionStart', command };
}

function payloadFor(event: string): Buffer {
  const head = JSON.stringify({
    hook_event_name: event,
    session_id: 'orca-verify',
    text: `it's "q" $(x) \`y\` %P% !z! é 漢 😀 \r\n`,
  });
  return Buffer.from(
    `${head.slice(0, -1)},"pad":"${'v'.repeat(Math.max(0, VERIFY_PAYLOAD_BYTES - head.length - 9))}"}`,
  );
}

function expectClean(r: VerifyRun, stdout: string, code = 0): string | null {
  if (r.code !== code) return `exit ${r.code}, expected ${code}`;
  if (r.epipe) return 'EPIPE at the writer (stdin not drained)';
  if (r.stderr !== '') return `stderr: ${r.stderr.slice(0, 200)}`;
  if (r.stdout !== stdout)
    return `stdout ${JSON.stringify(r.stdout.slice(0, 200))}, expected ${JSON.stringify(stdout)}`;
  return null;
}

/**
 * Runs every managed POSIX command found in `home`'s agent configs for real under every
 * available shell (`env -i`-style env: PATH + HOME only, no running host reachable): no env,
 * dead port, own loopback server, each skip, missing script and exit-code propagation, each with
 * ≥ 1 MiB in one write. Windows-only checks are reported as skipped.
 *
 * @example
 * const report = await verifyHome({ home: '/tmp/h' }, nodeVerifyIo);
 * if (!report.ok) process.exitCode = 1;
 */
export async function verifyHome(opts: VerifyOptions, io: VerifyIo): Promise<VerifyReport> {
  const report: VerifyReport = { ok: true, shells: [], checks: [], skipped: [] };
  const shells: [string, string[]][] = [];
  for (const name of opts.shells ?? Object.keys(VERIFY_SHELLS)) {
    const argv = VERIFY_SHELLS[name];
    const bin = argv?.[0];
    const path = bin === undefined ? undefined : await io.which(bin);
    if (argv === undefined || path === undefined) {
      report.skipped.push({ id: `*/${name}/*`, reason: argv === undefined ? 'unknown shell' : `${bin} not installed` });
      continue;
    }
    shells.push([name, [path, ...argv.slice(1)]]);
    report.shells.push(name);
  }
  const agents = AGENT_LIST.filter((d) => (opts.agents ?? AGENT_IDS).includes(d.id));
  const targets: Target[] = [];
  for (const d of agents) {
    const path = configPath(d, 'posix', opts.home);
    const text = await io.readText(path);
    const found = d.configShape === 'opencode-plugin' ? pluginHandler(text, d, opts.home) : configHandler(text, d);
    report.skipped.push({ id: `${d.id}/windows/*`, reason: 'no Windows runtime here' });
    if (found === undefined) {
      report.skipped.push({ id: `${d.id}/*/*`, reason: `no managed handler in ${path}` });
      continue;
    }
    targets.push({ d, ...found, script: joinFor('posix', hooksDir('posix', opts.home), `${d.scriptStem}-hook.sh`) });
  }
  const work = await io.tempDir();
  const server = await io.startServer();
  const dead = await io.deadPort();
  try {
    const standin = joinFor('posix', work, 'standin', '.orca', 'agent-hooks');
    const tasks: (() => Promise<void>)[] = [];
    let seq = 0;
    for (const t of targets) {
      const standinPath = joinFor('posix', standin, `${t.d.scriptStem}-hook.sh`);
      await io.writeFile(standinPath, `#!/bin/sh\ncat >/dev/null\nexit ${VERIFY_STANDIN_EXIT_CODE}\n`, 0o755);
      for (const [shellName, argv] of shells) {
        const id = (check: string) => `${t.d.id}/${shellName}/${check}`;
        const record = (check: string, failure: string | null) => {
          report.checks.push({ id: id(check), ok: failure === null, detail: failure ?? '' });
          if (failure !== null) report.ok = false;
        };
        const line = protocolLineFor(t.d, t.event);
        const stdout = line === null ? '' : `${line}\n`;
        const runWith = (command: string, env: Record<string, string>, input = payloadFor(t.event)) =>
          io.run([...argv, '-c', command], {
            env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: opts.home, ...env },
            input,
          });
        const paneEnv = (port: number, token: string): Record<string, string> => ({
          ORCA_AGENT_HOOK_PORT: String(port),
          ORCA_AGENT_HOOK_TOKEN: token,
          ORCA_PANE_KEY: 'verify:0b6e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
          ORCA_TAB_ID: 'verify',
          ORCA_AGENT_HOOK_ENV: 'verify',
          ORCA_AGENT_HOOK_VERSION: '1',
        });
        tasks.push(async () => {
          const r = await runWith(t.command, {});
          if (t.d.requiresPaneKey === true) {
            // Why: this launcher exits unread without a pane key (Grok may hold stdin open).
            record('no-env', r.code !== 0 ? `exit ${r.code}` : r.stdout !== '' || r.stderr !== '' ? 'output' : null);
          } else record('no-env', expectClean(r, stdout));
        });
        tasks.push(async () =>
          record('dead-port', expectClean(await runWith(t.command, paneEnv(dead, `dead-${seq++}`)), stdout)),
        );
        tasks.push(async () => {
          const token = `live-${seq++}`;
          const input = payloadFor(t.event);
          const r = await runWith(t.command, paneEnv(server.port, token), input);
          const mine = server.requests.filter((q) => q.headers['x-orca-agent-hook-token'] === token);
          const failure = expectClean(r, stdout) ?? checkRequest(t.d, mine, input);
          record('live', failure);
        });
        for (const skip of t.d.skips) {
          tasks.push(async () => {
            const token = `skip-${seq++}`;
            const r = await runWith(t.command, { ...paneEnv(server.port, token), [skip.env]: '1' });
            const n = server.requests.filter((q) => q.headers['x-orca-agent-hook-token'] === token).length;
            record(
              `skip-${skip.env}`,
              expectClean(r, stdout) ?? (n === 0 ? null : `${n} request(s) despite ${skip.env}`),
            );
          });
        }
        const missing = joinFor('posix', work, 'missing', `${t.d.scriptStem}-hook.sh`);
        const rebound = (to: string) => t.command.split(quoteLauncherPath(t.script)).join(quoteLauncherPath(to));
        const usesHome = !t.command.includes(quoteLauncherPath(t.script));
        tasks.push(async () => {
          const env = paneEnv(dead, `missing-${seq++}`);
          const r = usesHome
            ? await runWith(t.command, { ...env, HOME: joinFor('posix', work, 'missing') })
            : await runWith(rebound(missing), env);
          record('launcher-missing', expectClean(r, stdout));
        });
        tasks.push(async () => {
          const env = paneEnv(dead, `standin-${seq++}`);
          const r = usesHome
            ? await runWith(t.command, { ...env, HOME: joinFor('posix', work, 'standin') })
            : await runWith(rebound(standinPath), env);
          record('launcher-exit-code', expectClean(r, '', VERIFY_STANDIN_EXIT_CODE));
        });
      }
    }
    let next = 0;
    const limit = Math.max(1, opts.concurrency ?? 4);
    await Promise.all(
      Array.from({ length: limit }, async () => {
        while (next < tasks.length) {
          const task = tasks[next++];
          if (task) await task();
        }
      }),
    );
  } finally {
    await server.close();
    await io.removeDir(work);
  }
  report.checks.sort((a, b) => a.id.localeCompare(b.id));
  return report;
}

function checkRequest(d: AgentDescriptor, requests: { url: string; body: Buffer }[], input: Buffer): string | null {
  if (requests.length !== 1) return `${requests.length} requests, expected 1`;
  const req = requests[0];
  if (req === undefined) return 'no request';
  if (req.url !== `/hook/${d.source}`) return `path ${req.url}, expected /hook/${d.source}`;
  const fields = decodeFormBody(req.body);
  const names = fields.map(([k]) => k);
  const want = [...FORM_FIELDS.map(([f]) => f), ...d.extras.map((x) => x.field), 'payload'];
  if (names.join(',') !== want.join(',')) return `fields ${names.join(',')}, expected ${want.join(',')}`;
  const payload = fields.find(([k]) => k === 'payload')?.[1] ?? Buffer.alloc(0);
  if (!trimTrailingNewlines(payload).equals(trimTrailingNewlines(input))) {
    return `payload differs (${payload.length} bytes received, ${input.length} sent)`;
  }
  return null;
}

/**
 * Human lines: `ok|FAIL|skip <id>[: detail]`, then the totals. Details quote paths and what a
 * hook sent: control characters are escaped (`\x1b`).
 */
export function formatVerifyReport(report: VerifyReport): string {
  const p = printableField;
  const lines = [
    ...report.checks.map((c) => `${c.ok ? 'ok' : 'FAIL'} ${p(c.id)}${c.ok ? '' : `: ${p(c.detail)}`}`),
    ...report.skipped.map((s) => `skip ${p(s.id)}: ${p(s.reason)}`),
  ];
  const passed = report.checks.filter((c) => c.ok).length;
  lines.push(`${passed} passed, ${report.checks.length - passed} failed, ${report.skipped.length} skipped`);
  return `${lines.join('\n')}\n`;
}
