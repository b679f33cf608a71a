import fs from 'node:fs';

/**
 * Kills every process whose command line or environment mentions `root` (a lab run's temp dir).
 * Why: Codex starts an app-server daemon that outlives its TUI and the pane; it lives under the
 * run's `CODEX_HOME`. Linux only (reads /proc); elsewhere nothing is done.
 */
export function endStrayProcesses(root: string): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const killed: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let mentions = false;
    for (const file of ['cmdline', 'environ']) {
      try {
        if (fs.readFileSync(`/proc/${pid}/${file}`, 'latin1').includes(root)) mentions = true;
      } catch {
        // gone, or not ours to read
      }
      if (mentions) break;
    }
    if (!mentions) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // already gone
    }
  }
  return killed;
}
