import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { printableField, terminalSafeJson } from '@orca/shared/printable';
import type { MethodDefinition } from '@orca/wire/rpc';
import {
  EXIT_OK,
  EXIT_SIGINT,
  EXIT_SIGTERM,
  RPC_TCP_TOKEN_BYTES,
  RUNTIME_TOKEN_FILE_NAME,
  SHUTDOWN_FORCE_AFTER_MS,
} from '../constants.ts';
import { createHost, type Host } from '../host/host.ts';
import { listResumable, resumePanes } from '../resume/resume-panes.ts';
import { runtimeMethod } from '../rpc/contract-method.ts';
import { startRuntimeServer } from '../rpc/runtime-server.ts';
import type { RpcSocketServer } from '../rpc/socket-server.ts';
import { resolveDataDir } from '../runtime/data-dir.ts';
import { type RuntimeTokenFile, writeRuntimeTokenFile } from '../runtime/token-file.ts';
import { parseWebAddress, type WebAddress } from '../web/web-address.ts';
import { webAdminMethods } from '../web/web-admin-methods.ts';
import { findWebAssets } from '../web/web-assets.ts';
import { startWebServer, type WebServer } from '../web/web-server.ts';
import type { GlobalOptions } from './cli-context.ts';
import { type CliIo, UsageError } from './output.ts';
import { formatResumeReport } from './resume-commands.ts';

/**
 * `host.shutdown {panes?: 'keep'|'end'}` on the runtime socket (`orca stop [--all]`): stops this
 * host; `end` also ends the panes the PTY keeper holds, and the keeper. Not offered to browsers.
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
export function shutdownMethod(onShutdown: (panes: 'keep' | 'end') => void): MethodDefinition<any> {
  return runtimeMethod('host.shutdown', (p) => {
    onShutdown(p?.panes ?? 'keep');
    return { stopping: true, pid: process.pid, panes: p?.panes ?? 'keep' };
  });
}

/** Publishes the TCP token in `<data-dir>/runtime-token`; a failure stops the host it belongs to. */
function publishToken(host: Host, token: string): RuntimeTokenFile {
  return writeRuntimeTokenFile(join(host.paths.root, RUNTIME_TOKEN_FILE_NAME), token);
}

/** The host and its runtime RPC server, composed; either failing stops what already started. */
async function startServedHost(
  o: Parameters<typeof createHost>[0],
  listen: { port: number; token: string } | undefined,
  web: { address: WebAddress; assets: string } | undefined,
  onShutdown: (panes: 'keep' | 'end') => void,
): Promise<{ host: Host; server: RpcSocketServer; tokenFile: RuntimeTokenFile | null; web: WebServer | null }> {
  const host = await createHost(o);
  let server: RpcSocketServer | null = null;
  let webServer: WebServer | null = null;
  try {
    server = await startRuntimeServer(host, {
      ...(listen ? { tcp: listen } : {}),
      extraMethods: () => [...webAdminMethods(() => webServer), shutdownMethod(onShutdown)],
    });
    if (web) webServer = await startWebServer({ host, bind: web.address, assets: web.assets });
    // Why: the token is never printed or logged; it goes to a 0600 file the ready line names.
    const tokenFile = listen ? publishToken(host, listen.token) : null;
    return { host, server, tokenFile, web: webServer };
  } catch (error) {
    await webServer?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await host.stop().catch(() => undefined);
    throw error;
  }
}

/** `orca start`: runs the host in the foreground until SIGINT/SIGTERM, then shuts down cleanly. */
export async function runStart(
  io: CliIo,
  globals: GlobalOptions,
  o: {
    hookPort?: number;
    hookTransport?: 'form' | 'raw-json-v1';
    listen?: string;
    web?: string;
    webBindAny?: boolean;
    screenWorkers?: number;
    /** false: PTYs in the host process (they end with it); default true: the data dir's PTY keeper. */
    keeper?: boolean;
    /** Resume every agent session that ended with its keeper or host, once the host is up. */
    resume?: boolean;
  },
): Promise<number> {
  const dataDir = resolveDataDir({ flag: globals.dataDir });
  let listen: { port: number; token: string } | undefined;
  if (o.listen !== undefined) {
    const match = /^127\.0\.0\.1:(\d{1,5})$/.exec(o.listen);
    if (!match || Number(match[1]) > 65_535)
      throw new UsageError(`--listen expects 127.0.0.1:PORT, got ${printableField(o.listen)}`);
    listen = { port: Number(match[1]), token: randomBytes(RPC_TCP_TOKEN_BYTES).toString('hex') };
  }
  if (o.webBindAny === true && o.web === undefined) throw new UsageError('--web-bind-any needs --web ADDR:PORT');
  // Why: both checked before the host starts, so a bad address or unbuilt client changes nothing.
  const web =
    o.web !== undefined
      ? { address: parseWebAddress(o.web, o.webBindAny === true), assets: findWebAssets() }
      : undefined;
  if (web && !web.address.loopback)
    io.err(
      `orca: warning: --web-bind-any: the web client and its terminals are reachable from other machines on ${printableField(o.web ?? '')}; anyone holding the pairing URL controls your agents`,
    );
  // Why: listening from the first moment: a SIGTERM during startup stops the host once it is up
  // (releasing runtime.json) instead of killing the process with its claim in place.
  let stopRequested = false;
  let resolveSignalled: () => void = () => undefined;
  const signalled = new Promise<void>((resolve) => {
    resolveSignalled = resolve;
  });
  // Why: the listeners stay until the shutdown is over: the same request delivered twice (a process
  // group signalled as a whole, a wrapper relaying it) must not kill a host that is saving its
  // store; a signal once the shutdown has run SHUTDOWN_FORCE_AFTER_MS ends the process at once.
  let firstSignalAt: number | null = null;
  let panesAtStop: 'keep' | 'end' = 'keep';
  const stop = (signal: NodeJS.Signals): void => {
    const now = Date.now();
    if (firstSignalAt === null) {
      firstSignalAt = now;
      stopRequested = true;
      resolveSignalled();
      return;
    }
    if (now - firstSignalAt < SHUTDOWN_FORCE_AFTER_MS) return;
    io.err(`orca: ${signal} again: exiting before the shutdown finished`);
    process.exit(signal === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM);
  };
  const unlisten = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  let served: Awaited<ReturnType<typeof startServedHost>>;
  try {
    served = await startServedHost(
      {
        dataDir,
        ...(o.hookPort !== undefined ? { hookPort: o.hookPort } : {}),
        ...(o.hookTransport ? { hookTransport: o.hookTransport } : {}),
        ...(o.screenWorkers !== undefined ? { screenWorkers: o.screenWorkers } : {}),
        keeper: o.keeper !== false,
      },
      listen,
      web,
      (panes) => {
        // Why: `orca stop [--all]` asks over the runtime socket; the answer goes out before the stop.
        panesAtStop = panes;
        setImmediate(() => stop('SIGTERM'));
      },
    );
  } catch (error) {
    unlisten();
    throw error;
  }
  const { host, server, tokenFile, web: webServer } = served;
  const webReady = webServer ? { origin: webServer.origin, pairingUrl: webServer.pairingUrl() } : null;
  const tcp =
    tokenFile && server.tcpPort !== null
      ? { url: `ws://127.0.0.1:${server.tcpPort}`, port: server.tcpPort, tokenFile: tokenFile.path }
      : null;
  const ready = {
    dataDir,
    pid: process.pid,
    hookPort: host.endpoint.port,
    socket: host.paths.socket,
    keeperPid: host.keeperPid(),
    ...(tcp ? { tcp } : {}),
    ...(webReady ? { web: webReady } : {}),
  };
  if (!stopRequested)
    io.out(
      globals.json
        ? terminalSafeJson({ ready })
        : `orca host ready: ${printableField(dataDir)} (pid ${process.pid}, hook port ${ready.hookPort}${
            ready.keeperPid !== null
              ? `; panes in orca-keeper pid ${ready.keeperPid}: they outlive this host, \`orca stop --all\` ends them`
              : ''
          })${
            tcp ? `; RPC on ${tcp.url}, token in ${printableField(tcp.tokenFile)}` : ''
          }${webReady ? `\nopen ${webReady.pairingUrl} (one-time pairing link)` : ''}`,
    );
  // Why: after a reboot or `orca stop --all` the sessions are offered; `--resume` takes the offer.
  const resumable = listResumable(host.store);
  if (o.resume && resumable.length > 0) {
    const report = await resumePanes(host);
    if (globals.json) io.out(terminalSafeJson({ resume: report }));
    else for (const line of formatResumeReport(report)) io.out(line);
  } else if (resumable.length > 0 && !globals.json) {
    const can = resumable.filter((c) => 'argv' in c.plan).length;
    io.out(
      `${resumable.length} pane(s) ended with their keeper or host; ${can} can be resumed: \`orca resume ls\`, \`orca resume run\` (or start with --resume)`,
    );
  }
  await signalled;
  try {
    await (webServer?.close() ?? Promise.resolve()).finally(() =>
      server.close().finally(() => host.stop({ panes: panesAtStop })),
    );
  } finally {
    tokenFile?.remove();
    unlisten();
  }
  return EXIT_OK;
}
