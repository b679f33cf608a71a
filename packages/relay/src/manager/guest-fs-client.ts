import type { RelayChannel } from '@orca/wire/relay-frames';
import { FS_BRIDGE_MAX_FRAME_BYTES } from '../constants.ts';
import { GUESTFS_METHODS } from '../protocol.ts';
import type { GuestFs } from './types.ts';

/**
 * Typed `guestfs.*` calls over a guest's relay channel; the guest's answers (failures too) come
 * back as data.
 *
 * @example
 * const fs = createGuestFsClient(channel);
 * await fs.readFile('/home/u/.claude/settings.json');
 */
export function createGuestFsClient(channel: RelayChannel): GuestFs {
  return {
    readFile: (path) => channel.request(GUESTFS_METHODS.readFile, { path }),
    writeFile: async (path, content, mode) => {
      // Why: refuse before sending rather than kill the link with an oversize frame.
      if (Buffer.byteLength(JSON.stringify(content)) + 256 > FS_BRIDGE_MAX_FRAME_BYTES)
        return { ok: false, errno: 'EFBIG', message: 'content passes the frame cap' };
      return channel.request(
        GUESTFS_METHODS.writeFile,
        mode === undefined ? { path, content } : { path, content, mode },
      );
    },
    stat: (path) => channel.request(GUESTFS_METHODS.stat, { path }),
    rename: (src, dst) => channel.request(GUESTFS_METHODS.rename, { src, dst }),
    unlink: (path) => channel.request(GUESTFS_METHODS.unlink, { path }),
    mkdir: (path) => channel.request(GUESTFS_METHODS.mkdir, { path }),
    chmod: (path, mode) => channel.request(GUESTFS_METHODS.chmod, { path, mode }),
    readdir: (path) => channel.request(GUESTFS_METHODS.readdir, { path }),
  };
}
