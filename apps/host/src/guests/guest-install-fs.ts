import { randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import type { GuestFs } from '@orca/relay/manager';
import type { InstallFs } from '../agent-hooks/install-hooks.ts';
import { HostError } from '../errors.ts';

type FsResult = { ok: boolean; content?: unknown; message?: unknown; errno?: unknown; type?: unknown };

function result(value: unknown): FsResult {
  return typeof value === 'object' && value !== null ? (value as FsResult) : { ok: false };
}

function fail(op: string, path: string, r: FsResult): never {
  throw new HostError(
    'ORCA_HOST_GUEST',
    `guest ${op} ${path} failed: ${String(r.errno ?? '')} ${String(r.message ?? '')}`.trim(),
  );
}

/**
 * An {@link InstallFs} over a guest's relay fs bridge (`guestfs.*`), so the same pure installers
 * of `@orca/hook-templates` write managed hooks into a guest home: atomic via tmp + rename.
 */
export function guestInstallFs(fs: GuestFs, home: string): InstallFs {
  const root = home.replace(/\/+$/, '');
  const mkdirs = async (dir: string): Promise<void> => {
    // Why: the bridge refuses paths outside the guest home, so creation starts at the home.
    if (dir !== root && !dir.startsWith(`${root}/`))
      throw new HostError('ORCA_HOST_GUEST', `${dir} is outside the guest home ${root}`);
    const parts = dir
      .slice(root.length)
      .split('/')
      .filter((p) => p.length > 0);
    let current = root;
    for (const part of parts) {
      current = `${current}/${part}`;
      const st = result(await fs.stat(current));
      if (st.ok) continue;
      const made = result(await fs.mkdir(current));
      if (!made.ok && made.errno !== 'EEXIST') fail('mkdir', current, made);
    }
  };
  return {
    async readText(path) {
      const r = result(await fs.readFile(path));
      return r.ok && typeof r.content === 'string' ? r.content : null;
    },
    async writeAtomic(path, content, mode) {
      const dir = posix.dirname(path);
      await mkdirs(dir);
      const tmp = posix.join(dir, `.orca-${randomUUID()}.tmp`);
      const written = result(await fs.writeFile(tmp, content, mode));
      if (!written.ok) fail('writeFile', tmp, written);
      const chmodded = result(await fs.chmod(tmp, mode));
      if (!chmodded.ok) fail('chmod', tmp, chmodded);
      const renamed = result(await fs.rename(tmp, path));
      if (!renamed.ok) {
        await fs.unlink(tmp);
        fail('rename', path, renamed);
      }
    },
    async remove(path) {
      await fs.unlink(path);
    },
  };
}
