import { fileURLToPath } from 'node:url';

/**
 * How to start this package's `orca-keeper`: the built `dist/cli.js` beside this module, or — run
 * from source (tests, `pnpm orca`) — `dev/keeper-cli.mjs`, which loads `src/cli.ts` through tsx
 * with the `orca-source` condition.
 *
 * @example
 * const { file, args } = keeperCommand();
 * spawn(file, [...args, '--state-dir', dir, '--socket', sock], { detached: true });
 */
export function keeperCommand(): { file: string; args: string[] } {
  if (!import.meta.url.endsWith('.ts')) {
    return { file: process.execPath, args: [fileURLToPath(new URL('./cli.js', import.meta.url))] };
  }
  // Why: dev only (dev/ is never shipped); the published package runs dist/cli.js and needs no tsx.
  return {
    file: process.execPath,
    args: ['--conditions=orca-source', fileURLToPath(new URL('../dev/keeper-cli.mjs', import.meta.url))],
  };
}
