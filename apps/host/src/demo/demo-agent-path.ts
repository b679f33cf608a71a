import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostError } from '../errors.ts';

/**
 * Locates `demo/demo-agent.mjs` of this package by walking up from this module to the
 * `@orca/host` package root (works from `src/` under tsx and from the bundled `dist/`).
 */
export function demoAgentPath(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (let depth = 0; depth < 6; depth += 1) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
        const agent = join(dir, 'demo', 'demo-agent.mjs');
        if (name === '@orca/host' && existsSync(agent)) return agent;
      } catch {
        // not ours; keep walking
      }
    }
    dir = dirname(dir);
  }
  throw new HostError(
    'ORCA_HOST_DEMO',
    'the bundled demo agent (demo/demo-agent.mjs) is missing; reinstall @orca/host',
  );
}
