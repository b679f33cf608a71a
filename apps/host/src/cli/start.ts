import { randomBytes } from 'node:crypto';
import { EXIT_OK, RPC_TCP_TOKEN_BYTES } from '../constants.ts';
import { createHost } from '../host/host.ts';
import { resolveDataDir } from '../runtime/data-dir.ts';
import { type CliIo, UsageError } from './output.ts';
import { printableField, terminalSafeJson } from './printable.ts';
import type { GlobalOptions } from './program.ts';

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
  const host = await createHost({
    dataDir,
    ...(listen ? { listen } : {}),
    ...(o.hookPort !== undefined ? { hookPort: o.hookPort } : {}),
    ...(o.hookTransport ? { hookTransport: o.hookTransport } : {}),
  });
  const ready = { dataDir, pid: process.pid, hookPort: host.endpoint.port, socket: host.paths.socket };
  io.out(
    globals.json
      ? terminalSafeJson({ ready })
      : `orca host ready: ${printableField(dataDir)} (pid ${process.pid}, hook port ${ready.hookPort})`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await host.stop();
  return EXIT_OK;
}
