import { EXIT_OK } from '../constants.ts';
import { createHost } from '../host/host.ts';
import { resolveDataDir } from '../runtime/data-dir.ts';
import type { CliIo } from './output.ts';
import type { GlobalOptions } from './program.ts';

/** `orca start`: runs the host in the foreground until SIGINT/SIGTERM, then shuts down cleanly. */
export async function runStart(
  io: CliIo,
  globals: GlobalOptions,
  o: { hookPort?: number; hookTransport?: 'raw-json-v1'; listen?: string },
): Promise<number> {
  const dataDir = resolveDataDir({ flag: globals.dataDir });
  const host = await createHost({
    dataDir,
    ...(o.hookPort !== undefined ? { hookPort: o.hookPort } : {}),
    ...(o.hookTransport ? { hookTransport: o.hookTransport } : {}),
  });
  const ready = { dataDir, pid: process.pid, hookPort: host.endpoint.port, socket: host.paths.socket };
  io.out(
    globals.json
      ? JSON.stringify({ ready })
      : `orca host ready: ${dataDir} (pid ${process.pid}, hook port ${ready.hookPort})`,
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
