import { readFileSync } from 'node:fs';

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
