import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostError } from '../errors.ts';

/**
 * Finds the built browser client (`apps/web`'s `dist/`, holding `index.html`): `ORCA_WEB_DIST`
 * when set, else `web/` beside the running module (the published package's `dist/web`), else
 * `../web/dist` beside this package's root (the workspace layout; works from
 * `src/` under tsx and from the bundled `dist/`). The host does not import `@orca/web`: it
 * only serves its files. Missing → `ORCA_HOST_WEB` saying how to build them.
 */
export function findWebAssets(env: NodeJS.ProcessEnv = process.env, from: string = import.meta.url): string {
  const explicit = env.ORCA_WEB_DIST;
  if (explicit !== undefined && explicit !== '') {
    const dir = resolve(explicit);
    if (existsSync(join(dir, 'index.html'))) return dir;
    throw new HostError('ORCA_HOST_WEB', `ORCA_WEB_DIST=${dir} holds no index.html; build apps/web or unset it`);
  }
  // Why: the published package carries the client in dist/web, beside the bundled CLI.
  const shipped = join(dirname(fileURLToPath(from)), 'web');
  if (existsSync(join(shipped, 'index.html'))) return shipped;
  let dir = dirname(fileURLToPath(from));
  for (let depth = 0; depth < 6; depth += 1) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === '@orca/host') {
          const dist = join(dir, '..', 'web', 'dist');
          if (existsSync(join(dist, 'index.html'))) return resolve(dist);
          break;
        }
      } catch {
        // not ours; keep walking
      }
    }
    dir = dirname(dir);
  }
  throw new HostError(
    'ORCA_HOST_WEB',
    'the browser client is not built (no apps/web/dist/index.html); run `pnpm --filter @orca/web run build` or set ORCA_WEB_DIST',
  );
}
