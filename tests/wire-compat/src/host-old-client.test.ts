import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, dataPaths, type Host, readRuntimeInfo, startRuntimeServer } from '@orca/host';
import { until } from '@orca/testkit';
import * as currentCompat from '@orca/wire/compat';
import currentPackage from '@orca/wire/package.json' with { type: 'json' };
import * as currentRpc from '@orca/wire/rpc';
import * as currentTerminal from '@orca/wire/terminal-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractBaseline, findBaselines, repoRootDir, sourceEntry } from './baseline.ts';
import { openRuntimeSocket, type RuntimeSocket } from './runtime-socket.ts';

/** The client-side pieces of one `@orca/wire` build: terminal-stream client, RPC envelopes, compat check. */
interface ClientBuild {
  label: string;
  version: string;
  terminal: typeof currentTerminal;
  rpc: typeof currentRpc;
  compat: typeof currentCompat;
}

const cur: ClientBuild = {
  label: 'cur',
  version: currentPackage.version,
  terminal: currentTerminal,
  rpc: currentRpc,
  compat: currentCompat,
};
const root = repoRootDir();
// Why: a missing baseline fails the file at collection time (as in cross-version.test.ts), never skips.
const baselines = findBaselines(root);

const PANE_SCRIPT = 'echo ready; while IFS= read -r line; do echo "got:$line"; done';

let tempRoot: string;
let dataDir: string;
let host: Host;
let server: Awaited<ReturnType<typeof startRuntimeServer>> | undefined;
let paneHandle: string;
const sockets: RuntimeSocket[] = [];

beforeAll(async () => {
  tempRoot = mkdtempSync(join(tmpdir(), 'wire-compat-host-'));
  dataDir = join(tempRoot, 'data');
  host = await createHost({ dataDir, home: tempRoot });
  server = await startRuntimeServer(host);
  const pane = await host.createPane({ argv: ['/bin/sh', '-c', PANE_SCRIPT], cwd: tempRoot });
  paneHandle = pane.handle;
  await until('the pane prints ready', () => host.showPane(paneHandle).tail?.includes('ready') === true);
});

afterAll(async () => {
  for (const socket of sockets.splice(0)) await socket.close();
  // Why: stop() SIGHUPs then SIGKILLs every pane's PTY process and closes runtime.sock.
  await server?.close();
  await host?.stop();
  if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
});

/** The capabilities a client of `build` is granted by this host: its desktop request, negotiated by the host's wire build. */
function expectedGrant(build: ClientBuild): string[] {
  const request = build.terminal.defaultRequest('desktop');
  // Why: the host's pane backend declares no source ranges (paneTerminalBackend), so ackOutputSourceRanges is never granted.
  return [...currentTerminal.negotiate(request, { clientType: 'desktop', sourceRanges: false }).capabilities].sort();
}

interface Session {
  statusEnvelope: currentRpc.RpcSuccess;
  verdict: string;
  statusParses: boolean;
  /** `capabilities` of the raw `subscribed` event, keys set to 1, sorted. */
  echo: string[];
  clientGrant: string[];
  snapshot: string;
  output: string;
  inputAccepted: boolean;
  token: string;
  refusedEnvelopes: string[];
  stats: ReturnType<ReturnType<typeof currentTerminal.createTerminalClient>['stats']>;
  sinkErrors: string[];
}

/** Connects with `build`'s client pieces over the real runtime socket: status.get, then terminal.multiplex. */
async function runSession(build: ClientBuild): Promise<Session> {
  const info = readRuntimeInfo(dataPaths(dataDir).runtimeJson);
  if (!info) throw new Error(`no runtime.json under ${dataDir}`);
  const socket = await openRuntimeSocket(info.socket, build.rpc.parseResponse);
  sockets.push(socket);

  const statusEnvelope = await socket.call('status.get');
  const status = statusEnvelope.result;
  const own = {
    runtimeProtocolVersion: build.compat.RUNTIME_PROTOCOL_VERSION,
    minCompatibleRuntimeServerVersion: build.compat.MIN_COMPATIBLE_RUNTIME_SERVER_VERSION,
    appVersion: build.version,
  };
  const verdict = build.compat.checkCompat(own, status).verdict;
  const statusParses = build.compat.StatusGetResultSchema.safeParse(status).success;

  const echoes: string[][] = [];
  const terminal = build.terminal.createTerminalClient({
    type: 'desktop',
    clientId: `wire-compat-${build.label}`,
    send: (bytes) => socket.sendBinary(bytes),
    call: (method, params) =>
      socket.stream(method, params, (event) => {
        const e = event as { type?: unknown; capabilities?: unknown };
        if (e.type === 'subscribed') {
          const caps = (typeof e.capabilities === 'object' && e.capabilities !== null ? e.capabilities : {}) as Record<
            string,
            unknown
          >;
          echoes.push(
            Object.keys(caps)
              .filter((k) => caps[k] === 1)
              .sort(),
          );
        }
        terminal.handleEvent(event);
      }),
  });
  socket.onBinary((bytes) => terminal.receive(bytes));

  let snapshot = '';
  let output = '';
  let clientGrant: string[] | undefined;
  const sinkErrors: string[] = [];
  const streamId = terminal.subscribe({
    terminal: paneHandle,
    sink: {
      onSubscribed: (s) => {
        clientGrant = [...s.capabilities].sort();
      },
      onSnapshot: (s) => {
        snapshot += s.data;
      },
      onOutput: (text) => {
        output += text;
      },
      onError: (message) => {
        sinkErrors.push(message);
      },
    },
  });
  await until(`${build.label}: subscribed with the initial snapshot`, () => clientGrant !== undefined);
  const token = `ping-${build.label}-${build.version}`;
  const inputAccepted = terminal.input(streamId, `${token}\r`);
  await until(`${build.label}: the pane's reply reaches the client`, () => output.includes(`got:${token}`));
  return {
    statusEnvelope,
    verdict,
    statusParses,
    echo: echoes[0] ?? [],
    clientGrant: clientGrant ?? [],
    snapshot,
    output,
    inputAccepted,
    token,
    refusedEnvelopes: [...socket.refusedEnvelopes],
    stats: terminal.stats(),
    sinkErrors,
  };
}

function assertSession(s: Session, build: ClientBuild): void {
  expect(s.statusEnvelope._meta.runtimeId).toEqual(expect.any(String));
  expect(s.statusParses).toBe(true);
  expect(s.verdict).toBe('ok');
  const grant = expectedGrant(build);
  expect(s.echo).toEqual(grant);
  expect(s.clientGrant).toEqual(grant);
  for (const name of s.echo) expect(Object.keys(build.terminal.CAPABILITIES)).toContain(name);
  expect(s.snapshot).toContain('ready');
  expect(s.inputAccepted).toBe(true);
  expect(s.output).toContain(`got:${s.token}`);
  expect(host.showPane(paneHandle).tail).toContain(`got:${s.token}`);
  expect(s.refusedEnvelopes).toEqual([]);
  expect(s.stats.rejected).toBe(0);
  expect(s.stats.errors).toEqual([]);
  expect(s.sinkErrors).toEqual([]);
}

/** Capabilities the host's (current) wire build knows and `build` does not. */
function unknownTo(build: ClientBuild): string[] {
  const known = Object.keys(build.terminal.CAPABILITIES);
  return Object.keys(currentTerminal.CAPABILITIES).filter((n) => !known.includes(n));
}

describe('a real host (runtime.sock, real PTY) with clients of other @orca/wire builds', () => {
  it(`control: the current client (${cur.version}) is compatible, granted its full desktop request, and round-trips input`, async () => {
    const s = await runSession(cur);
    assertSession(s, cur);
    expect(s.echo).toContain('outputPause');
    expect(s.echo).toContain('writeUnavailable');
  });

  for (const baseline of baselines) {
    describe(`old client ${baseline.version} (${baseline.commit.slice(0, 12)}, ${baseline.source})`, () => {
      let old: ClientBuild;
      beforeAll(async () => {
        const dir = extractBaseline(root, baseline.commit);
        old = {
          label: `old@${baseline.version}`,
          version: baseline.version,
          terminal: (await import(sourceEntry(dir, './terminal-stream'))) as typeof currentTerminal,
          rpc: (await import(sourceEntry(dir, './rpc'))) as typeof currentRpc,
          compat: (await import(sourceEntry(dir, './compat'))) as typeof currentCompat,
        };
      });

      it('status.get answers in envelopes the old build reads, and its compat check says ok; terminal.multiplex grants only what it knows; output and input round-trip', async () => {
        const s = await runSession(old);
        assertSession(s, old);
        const newer = unknownTo(old);
        for (const name of newer) expect(s.echo).not.toContain(name);
        if (!('outputPause' in old.terminal.CAPABILITIES)) {
          expect(newer).toEqual(expect.arrayContaining(['outputPause', 'writeUnavailable']));
          expect(s.echo).not.toContain('outputPause');
          expect(s.echo).not.toContain('writeUnavailable');
        }
      });
    });
  }
});
