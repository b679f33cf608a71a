import { listWorkspacePackages } from './workspace.ts';

export interface PublishConfigViolation {
  dir: string;
  message: string;
}

const ORCA_SOURCE = 'orca-source';

function mentionsOrcaSource(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(ORCA_SOURCE);
  if (Array.isArray(value)) return value.some(mentionsOrcaSource);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, inner]) => key === ORCA_SOURCE || mentionsOrcaSource(inner));
  }
  return false;
}

/** `exports[key]` as the tarball should carry it: the same conditions with `orca-source` left out. */
function withoutOrcaSource(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([condition]) => condition !== ORCA_SOURCE)
      .map(([condition, inner]) => [condition, withoutOrcaSource(inner)]),
  );
}

function sameKeys(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}

/**
 * Every public package (no `"private": true`) ships a `publishConfig.exports` that pnpm puts in
 * place of `exports` at pack time: same subpaths as `exports`, each entry equal to the source
 * one minus `orca-source`, and `orca-source` nowhere (it points at `src/`, which the tarball
 * leaves out).
 */
export function checkPublishConfig(root: string): PublishConfigViolation[] {
  return listWorkspacePackages(root).flatMap((pkg) => {
    const m = pkg.manifest;
    if (m.private === true) return [];
    const problems: string[] = [];
    const sourceExports = m.exports;
    const publishConfig = m.publishConfig as Record<string, unknown> | undefined;
    const published = publishConfig?.exports;
    if (!published || typeof published !== 'object' || Array.isArray(published)) {
      problems.push(`is public but has no "publishConfig.exports" (its "exports" would ship "${ORCA_SOURCE}")`);
    } else {
      const publishedMap = published as Record<string, unknown>;
      for (const [key, value] of Object.entries(publishedMap)) {
        if (mentionsOrcaSource(value)) {
          problems.push(`publishConfig.exports["${key}"] mentions "${ORCA_SOURCE}", which the tarball cannot resolve`);
        }
      }
      if (sourceExports && typeof sourceExports === 'object' && !Array.isArray(sourceExports)) {
        const sourceMap = sourceExports as Record<string, unknown>;
        const sourceKeys = Object.keys(sourceMap).sort();
        const publishedKeys = Object.keys(publishedMap).sort();
        if (!sameKeys(sourceKeys, publishedKeys)) {
          const missing = sourceKeys.filter((k) => !(k in publishedMap));
          const extra = publishedKeys.filter((k) => !(k in sourceMap));
          problems.push(
            `publishConfig.exports subpaths differ from exports: missing [${missing.join(', ')}], extra [${extra.join(', ')}]`,
          );
        } else {
          for (const key of sourceKeys) {
            if (mentionsOrcaSource(publishedMap[key])) continue;
            const expected = JSON.stringify(withoutOrcaSource(sourceMap[key]));
            if (JSON.stringify(publishedMap[key]) !== expected) {
              problems.push(`publishConfig.exports["${key}"] is not exports["${key}"] without "${ORCA_SOURCE}"`);
            }
          }
        }
      }
    }
    return problems.map((message) => ({ dir: pkg.dir, message: `${pkg.dir} ${message}` }));
  });
}
