// Copies the built browser client (apps/web/dist) into dist/web, so the published @orca/host
// serves its page with no ORCA_WEB_DIST. Run by `pnpm run build` after tsup.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, '..', 'web', 'dist');
const to = join(root, 'dist', 'web');
if (!existsSync(join(from, 'index.html'))) {
  console.error(
    `copy-web-dist: ${from} holds no index.html; build @orca/web first (pnpm --filter @orca/web run build)`,
  );
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
