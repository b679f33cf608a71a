// Plain JS (with vitest.preset.d.ts): see tsup.preset.js for why.
import { defineConfig, mergeConfig } from 'vitest/config';

/** Export condition that points every @orca package at its `src/` so tests need no build. */
export const ORCA_SOURCE_CONDITION = 'orca-source';

const conditions = [ORCA_SOURCE_CONDITION, 'node', 'import', 'module', 'default'];

/**
 * The shared vitest preset: Node environment, `orca-source` resolution, a JSON report per
 * package (`.vitest-report.json`, summed by `tooling/scripts/test-all.mjs`).
 *
 * @example
 * // packages/wire/vitest.config.ts
 * import { orcaVitest } from '@orca/config/vitest';
 * export default orcaVitest();
 */
export function orcaVitest(overrides = {}) {
  const base = defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: [ORCA_SOURCE_CONDITION] } },
    test: {
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      passWithNoTests: false,
      reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
    },
  });
  return mergeConfig(base, overrides);
}
