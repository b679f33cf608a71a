import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, realpath, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import type { InstallIo } from './install-io.ts';

export type { InstallIo } from './install-io.ts';

/** The real file system (`@orca/hook-templates/node-io`; `./install` itself does no I/O). */
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
