import { spawn } from 'node:child_process';
import { enterArgv, NETNS_READY_LINE, netnsHolderArgv } from './spawners.ts';

/** A running netns holder process. */
export interface NetnsHolder {
  readonly pid: number;
  /** Kill the holder (the namespace goes away with its last process). */
  kill(): void;
  /** Settles when the holder exits. */
  readonly exited: Promise<number | null>;
}

/**
 * Start a holder (`unshare -rn`, `lo` up) and resolve once it reports ready.
 * Rejects with the reason when the kernel or machine refuses.
 *
 * @example
 * const holder = await startNetnsHolder();
 * spawn(...enterArgv(holder.pid, ['curl', …]));
 */
export function startNetnsHolder(timeoutMs = 5_000): Promise<NetnsHolder> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = netnsHolderArgv();
    const child = spawn(file ?? 'unshare', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let settled = false;
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const fail = (reason: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(reason));
    };
    const timer = setTimeout(() => fail('netns holder did not become ready'), timeoutMs);
    child.on('error', (e) => fail(`cannot spawn unshare: ${e.message}`));
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString('utf8');
    });
    child.on('close', (code) => fail(`netns holder exited with code ${code}: ${err.trim().slice(0, 300)}`));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      if (!settled && out.includes(NETNS_READY_LINE) && child.pid !== undefined) {
        settled = true;
        clearTimeout(timer);
        const pid = child.pid;
        resolve({ pid, exited, kill: () => child.kill('SIGKILL') });
      }
    });
  });
}

/**
 * Whether netns guests work here: starts a holder, enters it, kills it.
 *
 * @example
 * const s = await netnsSupport(); if (!s.ok) console.log('netns unavailable:', s.reason);
 */
export async function netnsSupport(): Promise<{ ok: true } | { ok: false; reason: string }> {
  let holder: NetnsHolder;
  try {
    holder = await startNetnsHolder();
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
  try {
    const [file, ...args] = enterArgv(holder.pid, ['true']);
    const r = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const c = spawn(file ?? 'nsenter', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      c.stderr.on('data', (b: Buffer) => {
        err += b.toString('utf8');
      });
      c.on('error', (e) => resolve({ code: null, err: e.message }));
      c.on('close', (code) => resolve({ code, err }));
    });
    return r.code === 0
      ? { ok: true }
      : { ok: false, reason: `nsenter refused (${r.code}): ${r.err.trim().slice(0, 300)}` };
  } finally {
    holder.kill();
    await holder.exited;
  }
}
