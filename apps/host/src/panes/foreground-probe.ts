import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

/**
 * Extracts `tpgid` (field 8) from the text of `/proc/<pid>/stat`. The command name (field 2)
 * may hold spaces and parentheses, so fields are counted after its last `)`. Null if malformed.
 */
export function tpgidFromStat(stat: string): number | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // fields[0] = state (3), [1] ppid, [2] pgrp, [3] session, [4] tty_nr, [5] tpgid (8)
  const raw = fields[5];
  if (raw === undefined || !/^-?\d+$/.test(raw)) return null;
  const tpgid = Number(raw);
  return tpgid > 0 ? tpgid : null;
}

/**
 * The foreground process group of the PTY whose session leader is `pid` (Linux `/proc`), or
 * null when unreadable. Synchronous: one in-kernel read, taken at the moment a title arrives.
 */
export function readForegroundGroup(pid: number, procRoot = '/proc'): number | null {
  try {
    return tpgidFromStat(readFileSync(`${procRoot}/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Turns `/proc/<pid>/cmdline` bytes into argv joined by single spaces (trailing NUL dropped). */
export function cmdlineToText(cmdline: string): string | null {
  const trimmed = cmdline.endsWith('\0') ? cmdline.slice(0, -1) : cmdline;
  if (trimmed.length === 0) return null;
  return trimmed.split('\0').join(' ');
}

/**
 * Linux foreground-process probe of a PTY whose session leader is `pid`: reads the PTY's
 * foreground process group (`/proc/<pid>/stat` tpgid) and returns `/proc/<tpgid>/cmdline` as argv
 * joined by spaces, or null when unreadable (process gone, not Linux, kernel thread).
 *
 * @example
 * await readForegroundCommand(pty.pid) // 'node /usr/bin/claude'
 */
export async function readForegroundCommand(pid: number, procRoot = '/proc'): Promise<string | null> {
  return readForegroundCommandSync(pid, procRoot);
}

/** {@link readForegroundCommand}, synchronously. */
export function readForegroundCommandSync(pid: number, procRoot = '/proc'): string | null {
  try {
    // Why: /proc reads are in-kernel and take microseconds; async reads queued on libuv's small
    // thread pool under hundreds of panes and turned into seconds of verdict latency.
    const stat = readFileSync(`${procRoot}/${pid}/stat`, 'utf8');
    const tpgid = tpgidFromStat(stat);
    if (tpgid === null) return null;
    const cmdline = readFileSync(`${procRoot}/${tpgid}/cmdline`, 'utf8');
    return cmdlineToText(cmdline);
  } catch {
    return null;
  }
}

/** The foreground of one PTY, read through descriptors kept open (see {@link createForegroundReader}). */
export interface ForegroundReader {
  /** {@link readForegroundGroup} of the PTY. */
  group(): number | null;
  /** {@link readForegroundCommandSync} of the PTY. */
  command(): string | null;
  /** Closes the kept descriptors (the pane exited); later reads open them again. */
  close(): void;
}

/** Largest `/proc/<pid>/cmdline` read (bytes); longer command lines are cut there. */
const CMDLINE_MAX_BYTES = 64 * 1024;

/** A `/proc` file kept open and re-read from offset 0 (the kernel renders it anew at each read). */
function procFile(path: string) {
  let fd: number | null = null;
  let buffer = Buffer.allocUnsafe(512);
  const readOnce = (): string | null => {
    fd ??= openSync(path, 'r');
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, 0);
      if (n < buffer.length || buffer.length >= CMDLINE_MAX_BYTES)
        return n === 0 ? null : buffer.toString('utf8', 0, n);
      buffer = Buffer.allocUnsafe(Math.min(buffer.length * 4, CMDLINE_MAX_BYTES));
    }
  };
  return {
    read(): string | null {
      try {
        return readOnce();
      } catch {
        // Why: the process is gone (ESRCH) or the file could not be opened; forget the descriptor.
        this.close();
        return null;
      }
    },
    close(): void {
      if (fd === null) return;
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      fd = null;
    },
  };
}

/**
 * The Linux foreground probe of the PTY whose session leader is `pid`, for a pane evaluated many
 * times a second: `/proc/<pid>/stat` and the foreground leader's `cmdline` stay open and are
 * re-read (one `pread` each instead of open, stat, read and close; 3x cheaper here). The cmdline
 * descriptor follows the foreground group: a new group opens its own. Same answers as
 * {@link readForegroundGroup} and {@link readForegroundCommandSync}.
 *
 * @example
 * const fg = createForegroundReader(pty.pid); fg.command(); // 'node /usr/bin/claude'
 */
export function createForegroundReader(pid: number, procRoot = '/proc'): ForegroundReader {
  const stat = procFile(`${procRoot}/${pid}/stat`);
  let leader: { pgid: number; cmdline: ReturnType<typeof procFile> } | null = null;
  const group = (): number | null => {
    const text = stat.read();
    return text === null ? null : tpgidFromStat(text);
  };
  return {
    group,
    command() {
      const pgid = group();
      if (pgid === null) return null;
      if (leader?.pgid !== pgid) {
        leader?.cmdline.close();
        leader = { pgid, cmdline: procFile(`${procRoot}/${pgid}/cmdline`) };
      }
      const text = leader.cmdline.read();
      return text === null ? null : cmdlineToText(text);
    },
    close() {
      stat.close();
      leader?.cmdline.close();
      leader = null;
    },
  };
}
