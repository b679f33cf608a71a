import { refusal } from '../errors.ts';
import type { Host } from '../host/host-types.ts';
import type { PaneView } from '../panes/pane-view.ts';
import { listResumable } from '../panes/resume-candidates.ts';
import type { PaneRecord } from '../store/store.ts';

export { candidateOf, listResumable, RESUMABLE_CAUSES, type ResumeCandidate } from '../panes/resume-candidates.ts';

/** What {@link resumePanes} did. */
export interface ResumeReport {
  readonly resumed: readonly { from: string; to: PaneView; argv: readonly string[] }[];
  readonly skipped: readonly { handle: string; reason: string }[];
}

/** Handles being resumed now, per store (one host process): a second caller skips them. */
const inFlight = new WeakMap<object, Set<string>>();

/**
 * Starts each candidate (all, or those of `handles`) again: the same cwd, name, guest, env and
 * size, the agent's own resume command with its session id and the original launch flags. A
 * resumed pane is linked to its successor (`resumedAs`) and not offered again.
 */
export async function resumePanes(
  host: Pick<Host, 'createPane' | 'store'>,
  handles?: readonly string[],
): Promise<ResumeReport> {
  const candidates = listResumable(host.store);
  const wanted = handles ?? candidates.map((c) => c.handle);
  const resuming = inFlight.get(host.store) ?? new Set<string>();
  inFlight.set(host.store, resuming);
  const resumed: { from: string; to: PaneView; argv: readonly string[] }[] = [];
  const skipped: { handle: string; reason: string }[] = [];
  for (const handle of wanted) {
    const c = candidates.find((x) => x.handle === handle);
    if (!c) {
      const record = host.store.getPane(handle);
      if (!record) throw refusal('terminal_handle_stale', `no pane ${handle}; run \`orca resume ls\``, { handle });
      skipped.push({
        handle,
        reason: record.resumedAs
          ? `already resumed as ${record.resumedAs}`
          : record.exitedAt === null
            ? 'it is still running'
            : `it ended by itself (${record.exitCause ?? 'exit'}), not with its keeper or host`,
      });
      continue;
    }
    if ('reason' in c.plan) {
      skipped.push({ handle, reason: c.plan.reason });
      continue;
    }
    const record = host.store.getPane(handle) as PaneRecord;
    // Why: two callers (the board and the CLI) listing at once must not start the agent twice.
    if (resuming.has(handle) || record.resumedAs) {
      skipped.push({
        handle,
        reason: record.resumedAs ? `already resumed as ${record.resumedAs}` : 'it is being resumed now',
      });
      continue;
    }
    resuming.add(handle);
    let view: PaneView;
    try {
      view = await host.createPane({
        argv: [...c.plan.argv],
        cwd: c.cwd,
        ...(c.name ? { name: c.name } : {}),
        ...(record.guest ? { guest: record.guest } : {}),
        ...(record.launch ? { env: { ...record.launch.env } } : {}),
        ...(record.launch?.cols ? { cols: record.launch.cols } : {}),
        ...(record.launch?.rows ? { rows: record.launch.rows } : {}),
      });
      host.store.setPaneResumedAs(handle, view.handle);
    } finally {
      resuming.delete(handle);
    }
    resumed.push({ from: handle, to: view, argv: c.plan.argv });
  }
  return { resumed, skipped };
}
