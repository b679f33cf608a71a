import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectRuntime } from '@orca/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileHost, startHostileHost, tempRoot } from './real-host.ts';

const REQUESTS = 100_000;
const IN_FLIGHT = 500;
/** RSS growth allowed for 100,000 requests on one connection (before the fix: about +145 MB). */
const RSS_BOUND_MB = 48;

let host: HostileHost;

function hostRssMb(): number {
  const status = readFileSync(`/proc/${host.ready.pid}/status`, 'utf8');
  const kb = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1]);
  return kb / 1024;
}

beforeAll(async () => {
  host = await startHostileHost(join(tempRoot('orca-hostile-rpc-leak-'), 'data'));
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

describe('a long-lived RPC connection', () => {
  it(`${REQUESTS} status.get calls on one connection grow the host's RSS by less than ${RSS_BOUND_MB} MB`, async () => {
    const client = await connectRuntime(host.dataDir);
    const warm = async (n: number) => {
      for (let sent = 0; sent < n; sent += IN_FLIGHT) {
        await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, n - sent) }, () => client.call('status.get')));
      }
    };
    await warm(5_000);
    const before = hostRssMb();
    await warm(REQUESTS);
    const after = hostRssMb();
    console.log(
      `host RSS over ${REQUESTS} requests on one connection: ${before.toFixed(1)} MB → ${after.toFixed(1)} MB (+${(after - before).toFixed(1)} MB)`,
    );
    expect(after - before).toBeLessThan(RSS_BOUND_MB);
    expect(host.alive()).toBe(true);
    client.close();
  }, 180_000);
});
