import { mkdirSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostError } from '../errors.ts';
import { startRpcSocketServer } from './socket-server.ts';

const handlers = { onText: () => undefined, onBinary: () => undefined };

function connectable(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('startRpcSocketServer on a failed start', () => {
  it.skipIf(process.platform !== 'linux')(
    'a socket path the kernel truncates: refused, and nothing stays listening on the truncated path',
    async () => {
      const long = join(
        mkdtempSync(join(tmpdir(), 'orca-ss-')),
        'd'.repeat(60),
        'e'.repeat(60),
        'data',
        'runtime.sock',
      );
      mkdirSync(dirname(long), { recursive: true });
      // Why: libuv fills all 108 bytes of sun_path and drops the rest.
      const truncated = Buffer.from(long).subarray(0, 108).toString();
      const started = startRpcSocketServer({ socketPath: long, handlers });
      await expect(started).rejects.toBeInstanceOf(HostError);
      await expect(started).rejects.toMatchObject({ code: 'ORCA_HOST_DATA_DIR' });
      expect(await connectable(truncated)).toBe(false);
    },
  );
});
