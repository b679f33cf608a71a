import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { EXIT_OK, RPC_TCP_TOKEN_BYTES, RUNTIME_TOKEN_FILE_NAME } from '../constants.ts';
import { createHost, type Host } from '../host/host.ts';
import { resolveDataDir } from '../runtime/data-dir.ts';
import { type RuntimeTokenFile, writeRuntimeTokenFile } from '../runtime/token-file.ts';
import { type CliIo, UsageError } from './output.ts';
import { printableField, terminalSafeJson } from './printable.ts';
import type { GlobalOptions } from './program.ts';

/** Publishes the TCP token in `<data-dir>/runtime-token`; a failure stops the host it belongs to. */
async function publishToken(host: Host, token: string): Promise<RuntimeTokenFile> {
  try {
    return writeRuntimeTokenFile(join(host.paths.root, RUNTIME_TOKEN_FILE_NAME), token);
  } catch (error) {
    await host.stop().catch(() => undefined);
    throw error;
  }
}

/** `orca start`: runs the host in the foreground until SIGINT/SIGTERM, then shuts down cleanly. */
export async function runStart(
  io: CliIo,
  globals: GlobalOptions,
  o: { hookPort?: number; hookTransport?: 'raw-json-v1'; listen?: string },
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
  let host: Host;
  let tokenFile: RuntimeTokenFile | null;
  try {
    host = await createHost({
      dataDir,
      ...(listen ? { listen } : {}),
      ...(o.hookPort !== undefined ? { hookPort: o.hookPort } : {}),
      ...(o.hookTransport ? { hookTransport: o.hookTransport } : {}),
    });
    // Why: the token is never printed or logged; it goes to a 0600 file the ready line names.
    tokenFile = listen ? await publishToken(host, listen.token) : null;
  } catch (error) {
    unlisten();
    throw error;
  }
  const tcp =
    tokenFile && host.rpcTcpPort !== null
      ? { url: `ws://127.0.0.1:${host.rpcTcpPort}`, port: host.rpcTcpPort, tokenFile: tokenFile.path }
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
    await host.stop();
  } finally {
    tokenFile?.remove();
  }
  return EXIT_OK;
}
