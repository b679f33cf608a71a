import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { connectRuntime } from '@orca/host';
import { createRelayChannel } from '@orca/wire/relay-frames';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type HostileHost, runOrca, startHostileHost, tempRoot, until } from './real-host.ts';

let host: HostileHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

/** Who the socket belongs to (`keeper/keeper.json`). */
function keeperInfo(dataDir: string): { pid: number; socket: string } {
  return JSON.parse(readFileSync(join(dataDir, 'keeper', 'keeper.json'), 'utf8')) as { pid: number; socket: string };
}

/** `keeper.hello` as any local process could send it; resolves with the answer or the error. */
function rawHello(socket: string, protocol: number): Promise<unknown> {
  return new Promise((resolve) => {
    const s = connect(socket, () => {
      const ch = createRelayChannel({ write: (b) => s.write(b), policy: 'close' });
      s.on('data', (d: Buffer) => ch.receive(new Uint8Array(d)));
      ch.start();
      ch.request('keeper.hello', { protocol, host: { pid: process.pid, version: 'attacker' } }).then(
        (r) => {
          s.destroy();
          resolve(r);
        },
        (e: unknown) => {
          s.destroy();
          resolve(e);
        },
      );
    });
    s.on('error', (e) => resolve(e));
  });
}

describe('attack: the PTY keeper of a running host', () => {
  it('keeps its socket private, refuses a second host and hostile clients, survives junk, and the agent keeps working', async () => {
    const dataDir = join(tempRoot(), 'data');
    host = await startHostileHost(dataDir);
    const client = await connectRuntime(dataDir);
    const pane = await client.call('terminal.create', { argv: ['/bin/cat'], cwd: '/' });
    const keeper = keeperInfo(dataDir);
    expect(statSync(join(dataDir, 'keeper')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'keeper', 'keeper.json')).mode & 0o777).toBe(0o600);
    expect(statSync(keeper.socket).mode & 0o777).toBe(0o600);

    // Another local process pretending to be a host: refused while the real one is attached.
    expect(await rawHello(keeper.socket, 1)).toMatchObject({ nodeCode: 'keeper_busy' });
    expect(await rawHello(keeper.socket, 99)).toMatchObject({ nodeCode: 'protocol_mismatch' });
    // Junk: every link it opens is dropped, the keeper stays.
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 2048 }), async (bytes) => {
        await new Promise<void>((resolve) => {
          const s = connect(keeper.socket, () => s.end(Buffer.from(bytes)));
          s.on('close', () => resolve());
          s.on('error', () => resolve());
        });
      }),
      { numRuns: 30 },
    );
    expect(() => process.kill(keeper.pid, 0)).not.toThrow();
    // A second `orca start` on the same data dir is refused before it reaches the keeper.
    const second = await runOrca(['--data-dir', dataDir, 'start'], { timeoutMs: 30_000 });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`pid ${host.ready.pid}`);
    // The real host still drives the pane through the keeper.
    await client.call('terminal.send', { handle: pane.handle, text: 'still here\r' });
    await until('the echo', async () =>
      ((await client.call('terminal.show', { handle: pane.handle })).tail ?? '').includes('still here'),
    );
    client.close();

    // Another user cannot even reach the socket (its directory is 0700).
    const other = spawnSync('id', ['-u', 'relaytest'], { encoding: 'utf8' });
    if (process.getuid?.() !== 0 || other.status !== 0) {
      console.log('skipping the other-user check: it needs root and the relaytest user (.ci/run creates it)');
      return;
    }
    const probe = spawnSync(
      'su',
      [
        'relaytest',
        '-s',
        '/bin/sh',
        '-c',
        `${process.execPath} -e "require('net').connect(process.argv[1]).on('error', (e) => { console.log(e.code); process.exit(0) }).on('connect', () => { console.log('CONNECTED'); process.exit(0) })" ${keeper.socket}`,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(probe.stdout.trim()).toBe('EACCES');
  }, 120_000);
});
