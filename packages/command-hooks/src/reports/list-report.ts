import type { ConfigIssue } from '../config/issues.ts';
import { type DiscoveredHooks, discoverHooks } from '../discover.ts';

/** One discovered hook as the `list` report shows it. */
export interface ListedHook {
  id: string;
  dialect: string;
  event: string;
  wireEvent: string;
  command: string;
  source: string;
  timeoutMs: number;
}

/** What `orca-command-hooks list` and `orca command-hooks list` print with `--json`. */
export interface ListReport {
  hooks: ListedHook[];
  warnings: ConfigIssue[];
  errors: ConfigIssue[];
}

/** The report of an already discovered set. */
export function listReportOf(found: DiscoveredHooks): ListReport {
  return {
    hooks: found.hooks.map((h) => ({
      id: h.id,
      dialect: h.dialect,
      event: h.event,
      wireEvent: h.wireEvent,
      command: h.command,
      source: h.source ?? '',
      timeoutMs: h.timeoutMs,
    })),
    warnings: [...found.warnings],
    errors: [...found.errors],
  };
}

/**
 * Discovers the hooks of a project root and a home and builds the `list` report.
 *
 * @example
 * const report = await buildListReport('/repo', { home: os.homedir() });
 * for (const line of formatListReport(report)) console.log(line);
 */
export async function buildListReport(root: string, options: { home: string }): Promise<ListReport> {
  return listReportOf(await discoverHooks(root, { home: options.home }));
}
