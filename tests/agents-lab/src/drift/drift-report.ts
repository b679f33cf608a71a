import { type BuildDrift, drifted } from './drift-run.ts';

/** Rows of a changed screen printed per moment (the JSON output has them all). */
export const SHOWN_ROWS_PER_MOMENT = 4;

function screenLines(added: readonly string[], removed: readonly string[]): string[] {
  const rows = [
    ...added.slice(0, SHOWN_ROWS_PER_MOMENT).map((l) => `        + ${l.trim()}`),
    ...removed.slice(0, SHOWN_ROWS_PER_MOMENT).map((l) => `        - ${l.trim()}`),
  ];
  const more = added.length + removed.length - rows.length;
  return more > 0 ? [...rows, `        … ${more} more`] : rows;
}

/** What one build's drift run found, as the lines `drift` prints. */
export function formatBuildDrift(d: BuildDrift): string[] {
  const head = `${d.build}  ${d.pkg}  pinned ${d.pinned} → ${d.release === d.pinned ? 'latest is the pin' : `release ${d.release}`}`;
  if (d.state === 'same') return [head, '    nothing to tour'];
  const lines = [head];
  for (const m of d.moments) {
    const changed = m.screen ? m.screen.added.length + m.screen.removed.length : 0;
    const screen =
      m.screen === null
        ? 'no pinned screen'
        : changed === 0
          ? 'screen as pinned'
          : `screen: +${m.screen.added.length} −${m.screen.removed.length} rows`;
    lines.push(`    ${m.ok ? 'pass' : 'FAIL'}  ${m.name.padEnd(28)} ${screen}`);
    for (const f of m.failures) lines.push(`        ! ${f}`);
    if (m.screen && changed > 0) lines.push(...screenLines(m.screen.added, m.screen.removed));
  }
  for (const name of d.missingMoments)
    lines.push(`    MISS  ${name.padEnd(28)} the pin showed it; this release never did`);
  if (d.hooksInstalledFor !== d.release) {
    lines.push(`    hooks: installed for ${d.hooksInstalledFor ?? 'no detected version'}, release is ${d.release}`);
  }
  lines.push(`    hook events seen: ${[...new Set(d.hookEvents)].join(', ') || 'none'}`);
  lines.push(`    ${drifted(d) ? 'DRIFTED: a rule no longer holds on this release' : 'holds: every moment passes'}`);
  return lines;
}

/** The whole report: one block per build. */
export function formatDrift(results: readonly BuildDrift[]): string {
  return `${results.map((d) => formatBuildDrift(d).join('\n')).join('\n\n')}\n`;
}
