import { readFileSync } from 'node:fs';

/** Fields of `/proc/<pid>/stat` after the command name (state first), or null where there is none. */
function procStatFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Why: the command name (in parentheses) may hold spaces and parentheses itself.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The kernel's start time of process `pid` (clock ticks since boot; Linux), or null where unknown. */
export function processStartTime(pid: number): string | null {
  return procStatFields(pid)?.[19] ?? null;
}

/** True when a process with this pid exists and has not ended (signal 0; EPERM counts as alive; a zombie does not). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // Why: a keeper that died but is not yet reaped by its parent still answers signal 0.
  return procStatFields(pid)?.[0] !== 'Z';
}

/**
 * True when the keeper `info` names still runs: its pid is alive and, where the file recorded it,
 * the process there started when the keeper did (a pid reused after a reboot or crash is not it).
 */
export function keeperAlive(info: { readonly pid: number; readonly procStart?: string | undefined }): boolean {
  if (!pidAlive(info.pid)) return false;
  if (info.procStart === undefined) return true;
  const now = processStartTime(info.pid);
  return now === null || now === info.procStart;
}
