import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type GuestRelay, runGuestRelay } from '../../src/guest/run-guest-relay.ts';
import { attachHost, type HostLink } from './host-link.ts';

/** A guest relay on in-memory pipes with a host channel attached (tests only). */
export async function memoryRelay(
  opts: {
    highWaterMark?: number;
    env?: Record<string, string>;
    queueSupersedeBytes?: number;
    onHook?: (p: unknown) => void;
  } = {},
): Promise<{
  relay: GuestRelay;
  link: HostLink;
  stdin: PassThrough;
  stdout: PassThrough;
  home: string;
  port: number;
  token: string;
}> {
  const home = await mkdtemp(join(tmpdir(), 'orca-mem-home-'));
  const stdin = new PassThrough();
  const stdout = new PassThrough({ highWaterMark: opts.highWaterMark ?? 16 * 1024 });
  const stderr = new PassThrough();
  stderr.resume();
  const token = 'mem-token';
  const relay = runGuestRelay({
    env: { ORCA_AGENT_HOOK_PORT: String(await freePort()), ORCA_AGENT_HOOK_TOKEN: token, ...opts.env },
    stdin,
    stdout,
    stderr,
    home,
    ...(opts.queueSupersedeBytes === undefined ? {} : { queueSupersedeBytes: opts.queueSupersedeBytes }),
  });
  const link = attachHost(stdout, stdin, opts.onHook);
  await link.sentinel;
  const info = (await link.channel.request('guestfs.home')) as { boundPort: number };
  return { relay, link, stdin, stdout, home, port: info.boundPort, token };
}

/** A port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const a = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return typeof a === 'object' && a !== null ? a.port : 0;
}
