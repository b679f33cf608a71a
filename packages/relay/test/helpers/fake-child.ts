import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { createRelayChannel, type RelayChannel, relaySentinel } from '@orca/wire/relay-frames';
import type { RelayClock } from '../../src/listener/types.ts';
import type { ChildLike, SpawnFn } from '../../src/manager/types.ts';

/** A scripted child process on in-memory pipes. */
export class FakeChild extends EventEmitter implements ChildLike {
  static nextPid = 1000;
  readonly pid = FakeChild.nextPid++;
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  killed = false;
  stdinText = '';
  guest?: RelayChannel;

  constructor(
    readonly file: string,
    readonly args: readonly string[],
    readonly env: Record<string, string | undefined>,
  ) {
    super();
    this.stdin.on('data', (b: Buffer) => {
      if (this.guest === undefined) this.stdinText += b.toString('latin1');
    });
  }

  kill(): boolean {
    if (this.killed) return false;
    this.killed = true;
    queueMicrotask(() => this.exit(null));
    return true;
  }

  exit(code: number | null, stderr = ''): void {
    if (stderr !== '') this.stderr.write(stderr);
    setImmediate(() => {
      this.stdout.end();
      this.emit('close', code, null);
    });
  }

  /** Write the sentinel (plus `trailing` frames in the same chunk) and serve a guest channel. */
  serve(
    clock: RelayClock,
    opts: { home?: unknown; garbage?: string; trailing?: (ch: RelayChannel) => void; splitSentinel?: boolean } = {},
  ): RelayChannel {
    const parts: Uint8Array[] = [];
    let collecting = true;
    const guest = createRelayChannel({
      policy: 'drop',
      clock,
      write: (b) => {
        if (collecting) parts.push(b);
        else this.stdout.write(b);
        return true;
      },
    });
    this.guest = guest;
    guest.onRequest(
      'guestfs.home',
      () =>
        opts.home ?? {
          ok: true,
          home: '/home/g',
          boundPort: 4711,
          portFallback: false,
          endpointPath: '/home/g/e',
          endpointWritten: true,
          version: 'v',
        },
    );
    guest.onRequest('agent_hook.requestReplay', () => ({ replayed: 0 }));
    this.stdin.removeAllListeners('data');
    this.stdin.on('data', (b: Buffer) => guest.receive(b));
    opts.trailing?.(guest);
    guest.start();
    collecting = false;
    const sentinel = Buffer.from(`${opts.garbage ?? ''}${relaySentinel()}`);
    if (opts.splitSentinel === true) {
      for (const byte of sentinel) this.stdout.write(Buffer.from([byte]));
      for (const p of parts) this.stdout.write(p);
    } else {
      this.stdout.write(Buffer.concat([sentinel, ...parts]));
    }
    return guest;
  }
}

/** A spawn whose children are scripted by `script(child, n)` (n = 0-based spawn count). */
export function scriptedSpawn(script: (child: FakeChild, n: number) => void): {
  spawn: SpawnFn;
  children: FakeChild[];
} {
  const children: FakeChild[] = [];
  const spawn: SpawnFn = (file, args, options) => {
    const c = new FakeChild(file, args, options.env);
    children.push(c);
    const n = children.length - 1;
    setImmediate(() => script(c, n));
    return c;
  };
  return { spawn, children };
}
