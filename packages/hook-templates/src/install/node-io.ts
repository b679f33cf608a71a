import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, realpath, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** File operations install/uninstall need: the CLI and the host use {@link nodeInstallIo}, guests a bridge. */
export interface InstallIo {
  readText(path: string): Promise<string | null>;
  /** temp → chmod → rename; symlinks are written through to their target. */
  writeAtomic(path: string, content: string, mode: number): Promise<void>;
  remove(path: string): Promise<void>;
}

/** The real file system. */
export const nodeInstallIo: InstallIo = {
  async readText(path) {
    try {
      return await readFile(path, 'utf8');
    } catch {
      return null;
    }
  },
  async writeAtomic(path, content, mode) {
    let target = path;
    try {
      target = await realpath(path);
    } catch {
      // Why: a missing file has no real path yet; write it where asked.
    }
    await mkdir(dirname(target), { recursive: true });
    const tmp = join(dirname(target), `.orca-hooks-${process.pid}-${randomUUID()}.tmp`);
    try {
      await writeFile(tmp, content, { mode });
      await chmod(tmp, mode);
      await rename(tmp, target);
    } catch (error) {
      await unlink(tmp).catch(() => undefined);
      throw error;
    }
  },
  async remove(path) {
    await unlink(path).catch(() => undefined);
  },
};
