import { chmod, lstat, mkdir, readdir, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { FS_BRIDGE_MAX_FRAME_BYTES } from '../constants.ts';
import { GUESTFS_METHODS } from '../protocol.ts';

/** A failed fs-bridge call, as data (never an RPC error). */
export interface FsFailure {
  ok: false;
  errno: string;
  message: string;
}

/** Every fs-bridge result. */
export type FsResult<T extends object = object> = ({ ok: true } & T) | FsFailure;

type DirentType = 'file' | 'dir' | 'link' | 'other';

// Why: JSON-RPC envelope + `{"ok":true,"content":…}` overhead, generous.
const RESPONSE_OVERHEAD_BYTES = 256;

function fail(errno: string, message: string): FsFailure {
  return { ok: false, errno, message };
}

function fromError(err: unknown): FsFailure {
  const e = err as NodeJS.ErrnoException;
  return fail(typeof e.code === 'string' ? e.code : 'EIO', e instanceof Error ? e.message : String(err));
}

function typeOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): DirentType {
  if (s.isSymbolicLink()) return 'link';
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'dir';
  return 'other';
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root === '/' ? '/' : `${root}/`);
}

/** Realpath of `p`, or of its deepest existing ancestor joined with the rest. */
async function realpathDeep(p: string): Promise<string> {
  const rest: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const r = await realpath(cur);
      return rest.length === 0 ? r : posix.join(r, ...rest.reverse());
    } catch {
      const parent = posix.dirname(cur);
      if (parent === cur) return p;
      rest.push(posix.basename(cur));
      cur = parent;
    }
  }
}

/** Options of {@link createFsBridge}. */
export interface FsBridgeOptions {
  home: string;
  /** Extra fields of `guestfs.home`. */
  homeInfo(): Record<string, unknown>;
}

/**
 * The home-scoped file bridge of a guest relay: every path must resolve inside `home`, lexically
 * and by realpath (symlink escapes refused). Failures are `{ok: false, errno, message}` results.
 *
 * @example
 * const fs = createFsBridge({ home: '/home/u', homeInfo: () => ({}) });
 * await fs[GUESTFS_METHODS.readFile]({ path: '/home/u/.claude/settings.json' });
 */
export function createFsBridge(options: FsBridgeOptions): Record<string, (params: unknown) => Promise<FsResult>> {
  const home = posix.resolve(options.home);
  let realHome: string | undefined;
  const getRealHome = async (): Promise<string> => {
    if (realHome === undefined) realHome = await realpath(home).catch(() => home);
    return realHome;
  };

  const params = (p: unknown): Record<string, unknown> | undefined =>
    typeof p === 'object' && p !== null && !Array.isArray(p) ? (p as Record<string, unknown>) : undefined;

  const lexical = (raw: unknown): string | FsFailure => {
    if (typeof raw !== 'string' || raw === '') return fail('EINVAL', 'expected a non-empty string path');
    if (!raw.startsWith('/')) return fail('EACCES', 'relative paths are refused');
    const p = posix.resolve(raw);
    if (!isInside(p, home)) return fail('EACCES', `path outside home: ${raw.slice(0, 200)}`);
    return p;
  };

  /** follow=true: realpath of the target; false: realpath of its parent. */
  const scoped = async (raw: unknown, follow: boolean): Promise<string | FsFailure> => {
    const p = lexical(raw);
    if (typeof p !== 'string') return p;
    const rh = await getRealHome();
    const probe = follow ? p : posix.dirname(p);
    const real = await realpathDeep(probe);
    if (!isInside(real, rh)) {
      return fail('EACCES', `path escapes home through a symlink: ${String(raw).slice(0, 200)}`);
    }
    return p;
  };

  const withPath =
    (follow: boolean, fn: (path: string, p: Record<string, unknown>) => Promise<FsResult>) =>
    async (raw: unknown): Promise<FsResult> => {
      const p = params(raw);
      if (p === undefined) return fail('EINVAL', 'expected an object of params');
      const path = await scoped(p.path, follow);
      if (typeof path !== 'string') return path;
      try {
        return await fn(path, p);
      } catch (err) {
        return fromError(err);
      }
    };

  return {
    [GUESTFS_METHODS.home]: async () => ({ ok: true, home, ...options.homeInfo() }),
    [GUESTFS_METHODS.readFile]: withPath(true, async (path) => {
      const st = await stat(path);
      if (st.size + RESPONSE_OVERHEAD_BYTES > FS_BRIDGE_MAX_FRAME_BYTES)
        return fail('EFBIG', `file of ${st.size} bytes passes the frame cap`);
      const content = await readFile(path, 'utf8');
      if (Buffer.byteLength(JSON.stringify(content)) + RESPONSE_OVERHEAD_BYTES > FS_BRIDGE_MAX_FRAME_BYTES) {
        return fail('EFBIG', 'encoded file passes the frame cap');
      }
      return { ok: true, content };
    }),
    [GUESTFS_METHODS.writeFile]: withPath(true, async (path, p) => {
      if (typeof p.content !== 'string') return fail('EINVAL', 'expected string content');
      const mode = p.mode;
      const useMode = typeof mode === 'number' && Number.isInteger(mode) && mode >= 0 && mode <= 0o7777;
      await writeFile(path, p.content, useMode ? { encoding: 'utf8', mode } : 'utf8');
      if (useMode) await chmod(path, mode);
      return { ok: true };
    }),
    [GUESTFS_METHODS.stat]: withPath(true, async (path) => {
      const st = await lstat(path);
      return { ok: true, mode: st.mode, size: st.size, type: typeOf(st) };
    }),
    [GUESTFS_METHODS.rename]: async (raw) => {
      const p = params(raw);
      if (p === undefined) return fail('EINVAL', 'expected an object of params');
      const src = await scoped(p.src, false);
      if (typeof src !== 'string') return src;
      const dst = await scoped(p.dst, false);
      if (typeof dst !== 'string') return dst;
      try {
        await rename(src, dst);
        return { ok: true };
      } catch (err) {
        return fromError(err);
      }
    },
    [GUESTFS_METHODS.unlink]: withPath(false, async (path) => {
      await unlink(path);
      return { ok: true };
    }),
    [GUESTFS_METHODS.mkdir]: withPath(false, async (path) => {
      await mkdir(path);
      return { ok: true };
    }),
    [GUESTFS_METHODS.chmod]: withPath(true, async (path, p) => {
      const mode = Number(p.mode);
      if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) return fail('EINVAL', 'mode out of range');
      await chmod(path, mode);
      return { ok: true };
    }),
    [GUESTFS_METHODS.readdir]: async (raw) => {
      const p = params(raw);
      if (p === undefined) return fail('EINVAL', 'expected an object of params');
      const rawPath = p.path;
      // Why: installers walk down from `/` to home, so home's ancestors may be listed.
      if (typeof rawPath === 'string' && rawPath.startsWith('/')) {
        const resolved = posix.resolve(rawPath);
        if (resolved !== home && isInside(home, resolved)) {
          try {
            const entries = await readdir(resolved, { withFileTypes: true });
            return { ok: true, entries: entries.map((e) => ({ name: e.name, type: typeOf(e) })) };
          } catch (err) {
            return fromError(err);
          }
        }
      }
      return withPath(true, async (path) => {
        const entries = await readdir(path, { withFileTypes: true });
        return { ok: true, entries: entries.map((e) => ({ name: e.name, type: typeOf(e) })) };
      })(raw);
    },
  };
}
