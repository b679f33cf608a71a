import { printableField as p } from '@orca/shared/printable';
import type { InstallReport } from '../install/apply.ts';

/**
 * Text lines: `create|update|unchanged|remove|refused PATH [code]`. Paths, versions (an agent's
 * own `--version` output) and warnings come from outside: control characters are escaped (`\x1b`).
 */
export function formatInstallReports(reports: readonly InstallReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (r.version) lines.push(`# ${p(r.agent)} ${p(r.version.version)} (from ${p(r.version.from)})`);
    for (const f of r.files)
      lines.push(`${p(f.action)} ${p(f.path)}${f.action === 'refused' && r.error ? ` ${p(r.error.code)}` : ''}`);
    if (r.error && r.files.length === 0) lines.push(`refused ${p(r.agent)} ${p(r.error.code)}`);
    for (const w of r.warnings) lines.push(`# ${p(w)}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
