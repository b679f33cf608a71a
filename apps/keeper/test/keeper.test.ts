import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectKeeper,
  KEEPER_MAX_CONNECTIONS,
  KEPT_EXITS_FILE,
  type Keeper,
  type KeeperClient,
  keeperAlive,
  keeperCommand,
  processStartTime,
  readKeeperInfo,
  readKeptExits,
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
    // Why: listening before the attach; live output may come in the same read as its answer.
    const live = collect(second, 'p');
    const rest = await second.attach('p', upTo);
    expect(rest.from).toBe(upTo);
    expect(rest.truncated).toBe(false);
    expect(rest.modes).toEqual([2004]);
    expect(seen.text() + rest.data).toContain('tick 20');
    await until('live output after the attach', () => live.text().includes('tick 29'));
    // Nothing was lost or doubled between the attach slice and the live stream.
    const whole = (await second.attach('p', 0)).data;
    expect(seen.text() + rest.data + live.text()).toBe(whole);
  });

  it('refuses a second live host (keeper_busy) and a host of another protocol (protocol_mismatch)', async () => {
    const { keeper } = await newKeeper();
    await host(keeper.socket);
    // Another live process (this test's parent stands in for a second host).
    await expect(connectKeeper(keeper.socket, { pid: process.ppid, version: 'b' })).rejects.toMatchObject({
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

  it('the attached host saying hello on a new link (its old one dropped in a stall) takes over at once', async () => {
    const { keeper } = await newKeeper();
    const first = await host(keeper.socket);
    await first.spawn({ id: 'p', ...sh('while read l; do echo "echo:$l"; done') });
    const second = await host(keeper.socket);
    await until('the old link ended', () => first.closed);
    expect(second.welcome.panes.map((p) => p.id)).toEqual(['p']);
    const live = collect(second, 'p');
    await second.attach('p', 0);
    second.write('p', 'again\r');
    await until('the pane answers on the new link', () => live.text().includes('echo:again'));
  });

  it('a ring past the frame limit once JSON-encoded (2 Mi of escapes and box drawing) attaches whole, in pages, and the link stays', async () => {
    const { keeper } = await newKeeper();
    const client = await host(keeper.socket);
    expect(client.welcome.capabilities).toContain('pty.attach.pages.v1');
    const out = collect(client, 'p');
    // Each line: 1000 control characters (6 bytes each in JSON) and 1000 box-drawing ones (3 in UTF-8).
    const line = `${'\\001'.repeat(1000)}${'─'.repeat(1000)}`;
    await client.spawn({
      id: 'p',
      ...sh(`i=0; while [ $i -lt 1000 ]; do printf '${line}\\n'; i=$((i+1)); done; echo END; sleep 60`),
    });
    await until('all the output', () => out.text().includes('END'), { timeoutMs: 60_000 });
    const slice = await client.attach('p', 0);
    expect(slice.data.length).toBeGreaterThan(2_000_000);
    expect(Buffer.byteLength(JSON.stringify(slice.data))).toBeGreaterThan(8 * 1024 * 1024);
    expect(slice.data).toBe(out.text().slice(slice.from));
    expect(slice.to).toBe(out.to());
    expect(client.closed).toBe(false);
  }, 90_000);

  it('a write past the frame limit (9 MiB) reaches the pane whole, and the link stays', async () => {
    const { keeper } = await newKeeper();
    const client = await host(keeper.socket);
    const out = collect(client, 'p');
    const size = 9 * 1024 * 1024;
    await client.spawn({ id: 'p', ...sh(`stty raw -echo; head -c ${size} | wc -c; sleep 60`) });
    await new Promise((r) => setTimeout(r, 300));
    client.write('p', 'x'.repeat(size));
    await until('the count', () => out.text().includes(String(size)), { timeoutMs: 60_000 });
    expect(client.closed).toBe(false);
  }, 90_000);

  it('a keeper.json whose pid now belongs to another process (reused after a crash or reboot) is taken over, not obeyed', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'orca-keeper-stale-')), 'keeper');
    mkdirSync(dir, { mode: 0o700 });
    const stale = {
      pid: process.ppid,
      socket: join(dir, 'gone.sock'),
      protocol: 1,
      version: 'x',
      startedAt: 1,
      procStart: '1',
    };
    writeFileSync(join(dir, 'keeper.json'), JSON.stringify(stale), { mode: 0o600 });
    expect(keeperAlive(stale)).toBe(false);
    const keeper = await startKeeper({ stateDir: dir, socket: join(dir, 'keeper.sock'), idleExitMs: 0 });
    keepers.push(keeper);
    const info = readKeeperInfo(join(dir, 'keeper.json'));
    expect(info).toMatchObject({ pid: process.pid, socket: keeper.socket, procStart: processStartTime(process.pid) });
    expect(keeperAlive(info as NonNullable<typeof info>)).toBe(true);
    // The same pid with its real start time is a live keeper: a second claim is refused.
    await expect(startKeeper({ stateDir: dir, socket: join(dir, 'other.sock') })).rejects.toMatchObject({
      code: 'ORCA_KEEPER_ALREADY_RUNNING',
    });
  });

  it('a keeper that leaves idle records the exits no host collected (0600), for the next host', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'orca-keeper-idle-')), 'keeper');
    let closed = '';
    const keeper = await startKeeper({
      stateDir: dir,
      socket: join(dir, 'keeper.sock'),
      idleExitMs: 300,
      onClosed: (why) => {
        closed = why;
      },
    });
    keepers.push(keeper);
    const client = await host(keeper.socket);
    await client.spawn({ id: 'ends-alone', ...sh('sleep 0.3; exit 7') });
    client.close();
    await until('the idle exit', () => closed === 'idle', { timeoutMs: 15_000 });
    const file = join(dir, KEPT_EXITS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readKeptExits(file).get('ends-alone')).toMatchObject({ code: 7, signal: null });
  });

  it('serves at most KEEPER_MAX_CONNECTIONS sockets at once; the rest are closed and the host is still served', async () => {
    const { keeper } = await newKeeper();
    const idle = await Promise.all(
      Array.from({ length: KEEPER_MAX_CONNECTIONS + 4 }, () => {
        const s = connect(keeper.socket);
        const ended = new Promise<boolean>((resolve) => s.on('close', () => resolve(true)));
        return new Promise<{ s: typeof s; ended: Promise<boolean> }>((resolve) =>
          s.on('connect', () => resolve({ s, ended })),
        );
      }),
    );
    const closedOnes = await Promise.all(
      idle.map(({ ended }) => Promise.race([ended, new Promise<boolean>((r) => setTimeout(() => r(false), 1_000))])),
    );
    expect(closedOnes.filter(Boolean).length).toBe(4);
    for (const { s } of idle) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const client = await host(keeper.socket);
    expect(client.welcome.pid).toBe(process.pid);
  });

  it('while no host is attached it holds the host claim (runtime.json), and takes it back from a host that took it over and died before its hello', async () => {
    const { keeper, dir } = await newKeeper();
    const claimPath = join(dir, '..', 'runtime.json');
    const first = await connectKeeper(keeper.socket, {
      pid: process.pid,
      version: 'test',
      vacancy: { path: claimPath, content: { socket: '/x/runtime.sock', appVersion: 'orca-keeper' } },
    });
    clients.push(first);
    await first.spawn({ id: 'p', ...sh('sleep 60') });
    first.close();
    const held = () => {
      try {
        return JSON.parse(readFileSync(claimPath, 'utf8')) as { pid: number; keeper?: boolean };
      } catch {
        return null;
      }
    };
    await until('the keeper holds the claim', () => held()?.pid === process.pid && held()?.keeper === true);
    // A host took the claim over, then died before it said hello.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    unlinkSync(claimPath);
    writeFileSync(claimPath, JSON.stringify({ pid: Number(dead.stdout), socket: '/x/runtime.sock' }));
    await until('the keeper holds it again', () => held()?.keeper === true, { timeoutMs: 5_000 });
  });

  it('a welcome whose panes’ command lines would pass the frame limit lists them without arguments, and the link stays', async () => {
    const { keeper } = await newKeeper();
    const first = await host(keeper.socket);
    const bigArgs = Array.from({ length: 8 }, (_, i) => `${i}${'a'.repeat(100_000)}`);
    for (let i = 0; i < 6; i++) {
      await first.spawn({ id: `big-${i}`, ...sh('sleep 60'), args: ['-c', 'sleep 60', 'sh', ...bigArgs] });
    }
    first.close();
    await until('the first link gone', () => first.closed);
    const second = await host(keeper.socket);
    expect(second.welcome.panes).toHaveLength(6);
    expect(second.welcome.panes.every((p) => p.args.length === 0 && p.pid > 0)).toBe(true);
    expect(second.closed).toBe(false);
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
      // Why: keeper.json is claimed before the socket listens (it is the one-keeper lock); a
      // connect between the two found no socket on a loaded CI machine.
      await until(
        'the keeper listening',
        () => readKeeperInfo(join(dir, 'keeper.json'))?.pid === child.pid && log.includes('listening on'),
        { timeoutMs: 30_000 },
      );
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
