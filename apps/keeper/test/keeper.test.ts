import { spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectKeeper,
  type Keeper,
  type KeeperClient,
  keeperCommand,
  readKeeperInfo,
  startKeeper,
} from '../src/index.ts';

const keepers: Keeper[] = [];
const clients: KeeperClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const k of keepers.splice(0)) await k.close({ killPanes: true });
});

async function newKeeper(idleExitMs = 0): Promise<{ keeper: Keeper; dir: string }> {
  const dir = join(mkdtempSync(join(tmpdir(), 'orca-keeper-')), 'keeper');
  const keeper = await startKeeper({ stateDir: dir, socket: join(dir, 'keeper.sock'), idleExitMs });
  keepers.push(keeper);
  return { keeper, dir };
}

async function host(socket: string, pid = process.pid): Promise<KeeperClient> {
  const client = await connectKeeper(socket, { pid, version: 'test' });
  clients.push(client);
  return client;
}

function collect(client: KeeperClient, id: string): { text: () => string; to: () => number } {
  let text = '';
  let to = 0;
  client.onData((pane, data, position) => {
    if (pane !== id) return;
    text += data;
    to = position;
  });
  return { text: () => text, to: () => to };
}

const sh = (script: string) => ({
  file: '/bin/sh',
  args: ['-c', script],
  cwd: '/',
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  cols: 80,
  rows: 24,
});

describe('the keeper holds PTYs for one host at a time', () => {
  it('spawns, streams output, takes input and reports the exit; its files are private', async () => {
    const { keeper, dir } = await newKeeper();
    const client = await host(keeper.socket);
    expect(client.welcome).toMatchObject({ protocol: 1, pid: process.pid, panes: [] });
    expect(client.welcome.capabilities).toEqual(
      expect.arrayContaining(['pty.spawn.v1', 'pty.ring.v1', 'pty.modes.v1']),
    );
    const out = collect(client, 'p1');
    const exits: unknown[] = [];
    client.onExit((id, exit) => exits.push({ id, ...exit }));
    const { pid } = await client.spawn({ id: 'p1', ...sh('read line; echo "got $line"; exit 3') });
    expect(pid).toBeGreaterThan(0);
    client.write('p1', 'hello\r');
    await until('the echo', () => out.text().includes('got hello'));
    await until('the exit', () => exits.length === 1);
    expect(exits[0]).toMatchObject({ id: 'p1', code: 3, signal: null });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(keeper.socket).mode & 0o777).toBe(0o600);
    expect(readKeeperInfo(join(dir, 'keeper.json'))).toMatchObject({
      pid: process.pid,
      socket: keeper.socket,
      protocol: 1,
    });
    await expect(startKeeper({ stateDir: dir, socket: join(dir, 'other.sock') })).rejects.toMatchObject({
      code: 'ORCA_KEEPER_ALREADY_RUNNING',
    });
  });

  it('a host that goes away leaves the pane running; the next one sees it (same pid) and gets all it missed', async () => {
    const { keeper } = await newKeeper();
    const first = await host(keeper.socket);
    const seen = collect(first, 'p');
    const { pid } = await first.spawn({
      id: 'p',
      ...sh("printf '\\033[?2004h'; i=0; while [ $i -lt 30 ]; do echo tick $i; i=$((i+1)); sleep 0.05; done; sleep 60"),
    });
    await until('some output', () => seen.text().includes('tick 2'));
    const upTo = seen.to();
    first.close();
    await new Promise((r) => setTimeout(r, 1_200));
    const second = await host(keeper.socket);
    expect(second.welcome.panes).toEqual([expect.objectContaining({ id: 'p', pid })]);
    expect(second.welcome.panes[0]?.position).toBeGreaterThan(upTo);
    const rest = await second.attach('p', upTo);
    expect(rest.from).toBe(upTo);
    expect(rest.truncated).toBe(false);
    expect(rest.modes).toEqual([2004]);
    expect(seen.text() + rest.data).toContain('tick 20');
    const live = collect(second, 'p');
    await until('live output after the attach', () => live.text().includes('tick 29'));
    // Nothing was lost or doubled between the attach slice and the live stream.
    const whole = (await second.attach('p', 0)).data;
    expect(seen.text() + rest.data + live.text()).toBe(whole);
  });

  it('refuses a second live host (keeper_busy) and a host of another protocol (protocol_mismatch)', async () => {
    const { keeper } = await newKeeper();
    await host(keeper.socket);
    await expect(connectKeeper(keeper.socket, { pid: process.pid, version: 'b' })).rejects.toMatchObject({
      code: 'keeper_busy',
    });
    await expect(connectKeeper(join(keeper.socket, 'nope'), { pid: 1, version: 'x' })).rejects.toMatchObject({
      code: 'link_connect',
    });
    // A host of another protocol, as a raw client would speak it.
    const { createRelayChannel } = await import('@orca/wire/relay-frames');
    const answer = await new Promise<unknown>((resolve) => {
      const s = connect(keeper.socket, () => {
        const ch = createRelayChannel({ write: (b) => s.write(b), policy: 'close' });
        s.on('data', (d: Buffer) => ch.receive(new Uint8Array(d)));
        ch.start();
        ch.request('keeper.hello', { protocol: 99, host: { pid: process.pid, version: 'future' } }).then(
          resolve,
          resolve,
        );
      });
    });
    expect(answer).toMatchObject({
      nodeCode: 'protocol_mismatch',
      message: expect.stringMatching(/protocol 1, the host 99/),
    });
  });

  it('keeper.stop kills every pane and ends the keeper', async () => {
    const { keeper } = await newKeeper();
    const client = await host(keeper.socket);
    const { pid } = await client.spawn({ id: 'p', ...sh('sleep 60') });
    await client.stopKeeper();
    await until('the pane is gone', () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
    await until('the socket closed', () => client.closed);
  });

  it('junk on the socket never takes the keeper down: the link is dropped, the next host is served (property)', async () => {
    const { keeper } = await newKeeper();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 512 }), async (bytes) => {
        await new Promise<void>((resolve) => {
          const s = connect(keeper.socket, () => {
            s.end(Buffer.from(bytes));
          });
          s.on('close', () => resolve());
          s.on('error', () => resolve());
          setTimeout(() => {
            s.destroy();
            resolve();
          }, 200);
        });
      }),
      { numRuns: 40 },
    );
    const client = await host(keeper.socket);
    expect(client.welcome.protocol).toBe(1);
  });
});

describe('orca-keeper, the process', () => {
  it('starts from its command, outlives the client that started it, and stops its panes on SIGTERM', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'orca-keeper-cli-')), 'keeper');
    const socket = join(dir, 'k.sock');
    const { file, args } = keeperCommand();
    const child = spawn(file, [...args, '--state-dir', dir, '--socket', socket], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr.on('data', (d: Buffer) => {
      log += d.toString();
    });
    try {
      await until('the keeper listening', () => readKeeperInfo(join(dir, 'keeper.json'))?.pid === child.pid, {
        timeoutMs: 30_000,
      });
      const a = await connectKeeper(socket, { pid: process.pid, version: 'test' });
      const { pid } = await a.spawn({ id: 'x', ...sh('sleep 60') });
      a.close();
      const b = await connectKeeper(socket, { pid: process.pid, version: 'test' });
      expect(b.welcome.panes.map((p) => [p.id, p.pid, p.exit])).toEqual([['x', pid, undefined]]);
      b.close();
      child.kill('SIGTERM');
      const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
      expect(code).toBe(0);
      expect(() => process.kill(pid, 0)).toThrow();
      expect(log).toContain('keeper closed (SIGTERM)');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
