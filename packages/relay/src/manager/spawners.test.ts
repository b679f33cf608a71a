import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  enterArgv,
  mergeWslenv,
  netnsHolderArgv,
  netnsSpawner,
  sshDestination,
  sshSpawner,
  wslSpawner,
} from './spawners.ts';
import type { SpawnFn } from './types.ts';

const vars = {
  ORCA_AGENT_HOOK_PORT: '4711',
  ORCA_AGENT_HOOK_TOKEN: 'sekret-token',
  ORCA_GUEST_INSTANCE: 'inst',
  ORCA_RELAY_VERSION: '1.0.0+abc',
};
const hostEnv = { PATH: '/bin', ORCA_AGENT_HOOK_ENDPOINT: '/x/endpoint.env', WSLENV: 'FOO/p:ORCA_AGENT_HOOK_PORT/u' };
const L = 'exec sh "$HOME/.orca-guest/relay/1.0.0+abc/launch.sh"';

describe('netns spawner', () => {
  const s = netnsSpawner({
    holderPid: (n) => (n === 'dev' ? 321 : undefined),
    home: () => '/guest/home',
    env: hostEnv,
  });
  it('launches through nsenter into the holder, HOME set, endpoint var removed', () => {
    expect(s.launch(' dev ', vars)).toEqual({
      file: 'nsenter',
      args: ['-t', '321', '-U', '-n', '--preserve-credentials', '--', 'sh', '-c', L],
      env: { PATH: '/bin', WSLENV: hostEnv.WSLENV, ...vars, HOME: '/guest/home' },
    });
    expect(s.install('dev')).toEqual({
      file: 'sh',
      args: ['-s'],
      env: { PATH: '/bin', WSLENV: hostEnv.WSLENV, HOME: '/guest/home' },
    });
    expect(s.connectionId('dev')).toBe('netns:dev');
    expect(s.token('dev', 'h')).toBe('h');
  });
  it('no holder → unavailable; bad names refused', async () => {
    expect(() => s.launch('gone', vars)).toThrow();
    expect(s.classify({ kind: 'spawn-error', errno: 'ENOHOLDER', stderrTail: '' })).toBe('unavailable');
    expect(
      s.classify({
        kind: 'exit',
        code: 1,
        stderrTail: 'nsenter: reassociate to namespace failed: Operation not permitted',
      }),
    ).toBe('unavailable');
    expect(s.classify({ kind: 'exit', code: 1, stderrTail: 'boom' })).toBe('other');
    expect(() => s.key('Dev')).toThrow(expect.objectContaining({ code: 'ORCA_RELAY_BAD_OPTIONS' }));
    expect(() => s.key('a'.repeat(65))).toThrow();
    expect(await s.isRunning('dev')).toBe(true);
    expect(await s.isRunning('gone')).toBe(false);
  });
  it('holder and enter argv', () => {
    expect(netnsHolderArgv()).toEqual([
      'unshare',
      '-rn',
      '--',
      'sh',
      '-c',
      'PATH=$PATH:/usr/sbin:/sbin; ip link set lo up || exit 44; echo orca-netns-ready; exec sleep infinity',
    ]);
    expect(enterArgv(9, ['curl', 'x'])).toEqual([
      'nsenter',
      '-t',
      '9',
      '-U',
      '-n',
      '--preserve-credentials',
      '--',
      'curl',
      'x',
    ]);
  });
});

describe('ssh spawner', () => {
  const s = sshSpawner({ sshArgs: ['-i', '/k'], env: hostEnv });
  it('puts secrets on stdin only, never on argv; dest with port → ssh://', () => {
    const spec = s.launch(' User@Host:2222 ', vars);
    expect(spec.file).toBe('ssh');
    expect(spec.args).toEqual([
      '-T',
      '-o',
      'BatchMode=yes',
      '-o',
      'ServerAliveInterval=15',
      '-o',
      'ServerAliveCountMax=3',
      '-i',
      '/k',
      'ssh://User@Host:2222',
      `sh -c 'read -r ORCA_AGENT_HOOK_PORT ORCA_AGENT_HOOK_TOKEN ORCA_GUEST_INSTANCE ORCA_RELAY_VERSION && export ORCA_AGENT_HOOK_PORT ORCA_AGENT_HOOK_TOKEN ORCA_GUEST_INSTANCE ORCA_RELAY_VERSION; ${L}'`,
    ]);
    expect(spec.args.join(' ').includes('sekret-token')).toBe(false);
    expect(spec.preamble).toBe('4711 sekret-token inst 1.0.0+abc\n');
    expect(spec.env.ORCA_AGENT_HOOK_ENDPOINT).toBeUndefined();
    expect(spec.env.ORCA_AGENT_HOOK_TOKEN).toBeUndefined();
    expect(s.install('h').args.at(-1)).toBe('sh -s');
    expect(s.connectionId(' User@Host:2222 ')).toBe('ssh:user@host:2222');
  });
  it('keeps the target case on every argv (the key and id are lowercased)', () => {
    expect(s.launch('Admin@Box', vars).args).toContain('Admin@Box');
    expect(s.install(' Admin@Box ').args).toContain('Admin@Box');
    expect(s.key('Admin@Box')).toBe('admin@box');
    expect(s.connectionId('Admin@Box')).toBe('ssh:admin@box');
  });
  it('per-target ssh args: each target gets its own list on launch, install and isRunning', async () => {
    const argsFor: Record<string, string[]> = { 'A@h:1': ['-p', '2201'], 'b@h': ['-o', 'Port=2202'] };
    const seen: string[][] = [];
    const spawn: SpawnFn = (_file, args) => {
      seen.push([...args]);
      const child = Object.assign(new EventEmitter(), {
        pid: 1,
        stdin: new PassThrough(),
        stdout: new PassThrough(),
        stderr: new PassThrough(),
        kill: () => true,
      });
      setImmediate(() => child.emit('close', 0, null));
      return child as unknown as ReturnType<SpawnFn>;
    };
    const per = sshSpawner({ sshArgs: (t) => argsFor[t] ?? [], env: hostEnv, spawn });
    const a = per.launch('A@h:1', vars).args;
    const b = per.launch('b@h', vars).args;
    expect(a.slice(7, 9)).toEqual(['-p', '2201']);
    expect(a[9]).toBe('ssh://A@h:1');
    expect(b.slice(7, 9)).toEqual(['-o', 'Port=2202']);
    expect(b.includes('2201')).toBe(false);
    expect(per.install('b@h').args.slice(7, 9)).toEqual(['-o', 'Port=2202']);
    expect(await per.isRunning(' A@h:1 ')).toBe(true);
    expect(seen[0]).toEqual([
      '-T',
      '-o',
      'BatchMode=yes',
      '-o',
      'ConnectTimeout=10',
      '-p',
      '2201',
      'ssh://A@h:1',
      'true',
    ]);
  });
  it('a random 128-bit token per state', () => {
    const a = s.token('h', 'host');
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(s.token('h', 'host')).not.toBe(a);
  });
  it('destinations', () => {
    expect(sshDestination('host')).toBe('host');
    expect(sshDestination('u@host')).toBe('u@host');
    expect(sshDestination('host:22')).toBe('ssh://host:22');
    expect(sshDestination('u@10.0.0.1:2200')).toBe('ssh://u@10.0.0.1:2200');
  });
  it('classifies transient and unavailable failures', () => {
    expect(
      s.classify({
        kind: 'exit',
        code: 255,
        stderrTail: 'kex_exchange_identification: read: Connection reset by peer',
      }),
    ).toBe('transient');
    expect(
      s.classify({ kind: 'exit', code: 255, stderrTail: 'ssh: connect to host x port 22: Connection refused' }),
    ).toBe('transient');
    expect(s.classify({ kind: 'exit', code: 255, stderrTail: 'Permission denied (publickey)' })).toBe('other');
    expect(s.classify({ kind: 'exit', code: 1, stderrTail: 'Connection reset' })).toBe('other');
    expect(s.classify({ kind: 'spawn-error', errno: 'ENOENT', stderrTail: '' })).toBe('unavailable');
  });
});

describe('wsl spawner (argv/env contract; wsl.exe cannot run here)', () => {
  it('launch argv, env, WSLENV merge without duplicates, windowsHide', () => {
    const s = wslSpawner({ env: hostEnv });
    expect(s.launch(' Ubuntu ', vars)).toEqual({
      file: 'wsl.exe',
      args: ['-d', 'Ubuntu', '--exec', 'sh', '-c', L],
      env: {
        PATH: '/bin',
        ...vars,
        WSL_UTF8: '1',
        WSLENV: 'FOO/p:ORCA_AGENT_HOOK_PORT/u:ORCA_AGENT_HOOK_TOKEN/u:ORCA_GUEST_INSTANCE/u:ORCA_RELAY_VERSION/u',
      },
      windowsHide: true,
    });
    expect(s.install('Ubuntu').args).toEqual(['-d', 'Ubuntu', '--exec', 'sh', '-s']);
    expect(s.connectionId(' Ubuntu ')).toBe('wsl:ubuntu');
    expect(mergeWslenv(undefined, ['A', 'A'])).toBe('A/u');
    expect(wslSpawner({ env: {}, cwd: 'C:\\x' }).launch('d', vars).cwd).toBe('C:\\x');
  });
  it('classifies catastrophic failure (UTF-16 NULs) as transient', () => {
    const s = wslSpawner({ env: {} });
    expect(
      s.classify({ kind: 'exit', code: 1, stderrTail: 'C\0a\0t\0a\0s\0t\0r\0o\0p\0h\0i\0c\0 \0f\0a\0i\0l\0u\0r\0e\0' }),
    ).toBe('transient');
    expect(s.classify({ kind: 'spawn-error', errno: 'ENOENT', stderrTail: '' })).toBe('unavailable');
  });
  it('isRunning reads wsl --list --running --quiet (case-insensitive); error = no', async () => {
    const fake =
      (out: string, code: number): SpawnFn =>
      (_f, _a, _o) => {
        const c = Object.assign(new EventEmitter(), {
          stdin: new PassThrough(),
          stdout: new PassThrough(),
          stderr: new PassThrough(),
          pid: 1,
          kill: () => true,
        });
        setImmediate(() => {
          c.stdout.end(Buffer.from(out, 'utf16le'));
          setImmediate(() => c.emit('close', code, null));
        });
        return c as unknown as ReturnType<SpawnFn>;
      };
    expect(await wslSpawner({ spawn: fake('Debian\r\nUBUNTU\r\n', 0) }).isRunning('ubuntu')).toBe(true);
    expect(await wslSpawner({ spawn: fake('Debian\r\n', 0) }).isRunning('ubuntu')).toBe(false);
    expect(await wslSpawner({ spawn: fake('Ubuntu\r\n', 1) }).isRunning('ubuntu')).toBe(false);
    const enoent: SpawnFn = () => {
      throw Object.assign(new Error('spawn wsl.exe ENOENT'), { code: 'ENOENT' });
    };
    expect(await wslSpawner({ spawn: enoent }).isRunning('ubuntu')).toBe(false);
  });
});
