import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Ends the PTY keeper of `dataDir` (and so every pane it holds) if one runs: `orca start` leaves
 * it running on purpose, a test must not. Reads `keeper/keeper.json`, sends SIGTERM, waits up to
 * `timeoutMs` for the pid to go. Resolves false when there was no keeper.
 *
 * @example
 * await host.stop(); await endKeeper(dataDir);
 */
export async function endKeeper(dataDir: string, timeoutMs = 10_000): Promise<boolean> {
  let pid: number;
  try {
    pid = (JSON.parse(readFileSync(join(dataDir, 'keeper', 'keeper.json'), 'utf8')) as { pid: number }).pid;
  } catch {
    return false;
  }
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!Number.isInteger(pid) || pid <= 0 || !alive()) return false;
  process.kill(pid, 'SIGTERM');
  for (const deadline = Date.now() + timeoutMs; alive() && Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  if (alive()) process.kill(pid, 'SIGKILL');
  return true;
}
