import { execFileSync } from 'node:child_process';

/** A POSIX shell the suites run scripts under. */
export interface Shell {
  name: string;
  argv: readonly string[];
}

const CANDIDATES: readonly Shell[] = [
  { name: 'dash', argv: ['dash'] },
  { name: 'bash', argv: ['bash', '--norc', '--posix'] },
  { name: 'busybox', argv: ['busybox', 'sh'] },
  { name: 'zsh', argv: ['zsh', '--emulate', 'sh'] },
  { name: 'mksh', argv: ['mksh'] },
];

function which(bin: string): string | undefined {
  try {
    return execFileSync('/bin/sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Absolute path of `bin`, or undefined. */
export function findBinary(bin: string): string | undefined {
  return which(bin);
}

/** Available shells (absent ones are printed once with the reason). */
export function availableShells(): Shell[] {
  const found: Shell[] = [];
  for (const s of CANDIDATES) {
    const bin = s.argv[0];
    const path = bin === undefined ? undefined : which(bin);
    if (path === undefined) {
      console.warn(`[hook-templates] skipping shell ${s.name}: ${bin} not installed (CI installs it)`);
      continue;
    }
    found.push({ name: s.name, argv: [path, ...s.argv.slice(1)] });
  }
  return found;
}

/** Runs `tasks` with at most `limit` in flight. */
export async function pool<T>(tasks: readonly (() => Promise<T>)[], limit = 4): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, tasks.length) }, async () => {
    while (next < tasks.length) {
      const i = next++;
      const task = tasks[i];
      if (task) results[i] = await task();
    }
  });
  await Promise.all(workers);
  return results;
}
