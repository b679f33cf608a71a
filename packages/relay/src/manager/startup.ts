import { RELAY_PROTOCOL_VERSION, SentinelScanner } from '@orca/wire/relay-frames';
import { SENTINEL_TIMEOUT_MS, STDERR_TAIL_BYTES } from '../constants.ts';
import type { RelayClock } from '../listener/types.ts';
import type { ChildLike, SpawnFn, SpawnSpec, StartupFailure } from './types.ts';

/** Keeps the last `max` bytes of a stream as text with NULs removed. */
export class StderrTail {
  private buf = Buffer.alloc(0);
  constructor(private readonly max: number = STDERR_TAIL_BYTES) {}
  push(chunk: Buffer): void {
    const b = Buffer.concat([this.buf, chunk]);
    this.buf = b.length > this.max ? b.subarray(b.length - this.max) : b;
  }
  text(): string {
    return this.buf.toString('utf8').replace(/\0/g, '');
  }
}

/** Result of {@link startChild}. */
export type StartResult =
  | { ok: true; child: ChildLike; rest: Uint8Array; stderr: StderrTail }
  | { ok: false; failure: StartupFailure };

/** Spawn a spec, swallow async stdin EPIPE, write the preamble. Throws on a synchronous spawn failure. */
export function spawnSpec(spawn: SpawnFn, spec: SpawnSpec): ChildLike {
  const child = spawn(spec.file, spec.args, {
    env: spec.env,
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
    ...(spec.windowsHide === undefined ? {} : { windowsHide: spec.windowsHide }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin?.on('error', () => {});
  if (spec.preamble !== undefined) child.stdin?.write(spec.preamble);
  return child;
}

function errnoOfError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? code : 'EIO';
}

/**
 * Spawn the relay and wait for its READY sentinel (10 s), tolerating garbage before it and
 * splits; > 64 KiB first → `overflow`; other protocol version → `version`; close → `exit`.
 */
export function startChild(spawn: SpawnFn, spec: SpawnSpec, clock: RelayClock): Promise<StartResult> {
  return new Promise((resolve) => {
    const stderr = new StderrTail();
    let child: ChildLike;
    try {
      child = spawnSpec(spawn, spec);
    } catch (err) {
      resolve({ ok: false, failure: { kind: 'spawn-error', errno: errnoOfError(err), stderrTail: '' } });
      return;
    }
    let settled = false;
    const scanner = new SentinelScanner();
    const finish = (r: StartResult): void => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      child.stdout?.off('data', onData);
      if (!r.ok) child.kill('SIGKILL');
      resolve(r);
    };
    const onData = (chunk: Buffer): void => {
      const scan = scanner.push(chunk);
      if (scan.kind === 'found') {
        if (scan.version !== RELAY_PROTOCOL_VERSION) {
          finish({ ok: false, failure: { kind: 'version', version: scan.version, stderrTail: stderr.text() } });
        } else {
          // Why: stop the flow until the caller wires the channel, so no frame is lost.
          child.stdout?.pause();
          finish({ ok: true, child, rest: scan.rest, stderr });
        }
      } else if (scan.kind === 'overflow') {
        finish({ ok: false, failure: { kind: 'overflow', stderrTail: stderr.text() } });
      }
    };
    const timer = clock.setTimeout(
      () => finish({ ok: false, failure: { kind: 'timeout', stderrTail: stderr.text() } }),
      SENTINEL_TIMEOUT_MS,
    );
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => stderr.push(c));
    child.on('error', (err) =>
      finish({ ok: false, failure: { kind: 'spawn-error', errno: errnoOfError(err), stderrTail: stderr.text() } }),
    );
    child.on('close', (code) => finish({ ok: false, failure: { kind: 'exit', code, stderrTail: stderr.text() } }));
  });
}

/** Run an install spec with `script` on stdin, bounded by `timeoutMs`. */
export function runInstall(
  spawn: SpawnFn,
  spec: SpawnSpec,
  script: string,
  clock: RelayClock,
  timeoutMs: number,
): Promise<{ code: number | null; timedOut: boolean; stderrTail: string }> {
  return new Promise((resolve) => {
    const tail = new StderrTail();
    let child: ChildLike;
    try {
      child = spawnSpec(spawn, spec);
    } catch (err) {
      resolve({ code: null, timedOut: false, stderrTail: String((err as Error).message) });
      return;
    }
    let done = false;
    const timer = clock.setTimeout(() => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
      resolve({ code: null, timedOut: true, stderrTail: tail.text() });
    }, timeoutMs);
    child.stderr?.on('data', (c: Buffer) => tail.push(c));
    child.stdout?.resume();
    child.on('error', (err) => {
      if (done) return;
      done = true;
      clock.clearTimeout(timer);
      resolve({ code: null, timedOut: false, stderrTail: `${tail.text()}${err.message}` });
    });
    child.on('close', (code) => {
      if (done) return;
      done = true;
      clock.clearTimeout(timer);
      resolve({ code, timedOut: false, stderrTail: tail.text() });
    });
    child.stdin?.end(script);
  });
}
