import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { EXIT_OK, RPC_TCP_TOKEN_BYTES, RUNTIME_TOKEN_FILE_NAME } from '../constants.ts';
import { createHost, type Host } from '../host/host.ts';
import { startRuntimeServer } from '../rpc/runtime-server.ts';
import type { RpcSocketServer } from '../rpc/socket-server.ts';
import { resolveDataDir } from '../runtime/data-dir.ts';
import { type RuntimeTokenFile, writeRuntimeTokenFile } from '../runtime/token-file.ts';
import type { GlobalOptions } from './cli-context.ts';
import { type CliIo, UsageError } from './output.ts';
import { printableField, terminalSafeJson } from './printable.ts';

/** Publishes the TCP token in `<data-dir>/runtime-token`; a failure stops the host it belongs to. */
function publishToken(host: Host, token: string): RuntimeTokenFile {
  return writeRuntimeTokenFile(join(host.paths.root, RUNTIME_TOKEN_FILE_NAME), token);
}

/** The host and its runtime RPC server, composed; either failing stops what already started. */
async function startServedHost(
  o: Parameters<typeof createHost>[0],
  listen: { port: number; token: string } | undefined,
): Promise<{ host: Host; server: RpcSocketServer; tokenFile: RuntimeTokenFile | null }> {
  const host = await createHost(o);
  let server: RpcSocketServer | null = null;
  try {
    server = await startRuntimeServer(host, listen ? { tcp: listen } : {});
    // Why: the token is never printed or logged; it goes to a 0600 file the ready line names.
    const tokenFile = listen ? publishToken(host, listen.token) : null;
    return { host, server, tokenFile };
  } catch (error) {
    await server?.close().catch(() => undefined);
    await host.stop().catch(() => undefined);
    throw error;
  }
}

/** `orca start`: runs the host in the foreground until SIGINT/SIGTERM, then shuts down cleanly. */
export async function runStart(
  io: CliIo,
  globals: GlobalOptions,
  o: { hookPort?: number; hookTransport?: 'form' | 'raw-json-v1'; listen?: string },
): Promise<number> {
  const dataDir = resolveDataDir({ flag: globals.dataDir });
  let listen: { port: number; token: string } | undefined;
  if (o.listen !== undefined) {
    const match = /^127\.0\.0\.1:(\d{1,5})$/.exec(o.listen);
    if (!match || Number(match[1]) > 65_535)
      throw new UsageError(`--listen expects 127.0.0.1:PORT, got ${printableField(o.listen)}`);
    listen = { port: Number(match[1]), token: randomBytes(RPC_TCP_TOKEN_BYTES).toString('hex') };
  }
  // Why: listening from the first moment: a SIGTERM during startup stops the host once it is up
  // (releasing runtime.json) instead of killing the process with its claim in place.
  let stopRequested = false;
  let resolveSignalled: () => void = () => undefined;
  const signalled = new Promise<void>((resolve) => {
    resolveSignalled = resolve;
  });
  const stop = (): void => {
    unlisten();
    stopRequested = true;
    resolveSignalled();
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
      },
      listen,
    );
  } catch (error) {
    unlisten();
    throw error;
  }
  const { host, server, tokenFile } = served;
  const tcp =
    tokenFile && server.tcpPort !== null
      ? { url: `ws://127.0.0.1:${server.tcpPort}`, port: server.tcpPort, tokenFile: tokenFile.path }
      : null;
  const ready = {
    dataDir,
    pid: process.pid,
    hookPort: host.endpoint.port,
    socket: host.paths.socket,
    ...(tcp ? { tcp } : {}),
  };
  if (!stopRequested)
    io.out(
      globals.json
        ? terminalSafeJson({ ready })
        : `orca host ready: ${printableField(dataDir)} (pid ${process.pid}, hook port ${ready.hookPort})${
            tcp ? `; RPC on ${tcp.url}, token in ${printableField(tcp.tokenFile)}` : ''
          }`,
    );
  await signalled;
  try {
    await server.close().finally(() => host.stop());
  } finally {
    tokenFile?.remove();
  }
  return EXIT_OK;
}
