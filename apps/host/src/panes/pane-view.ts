import { readTri, writeTri } from '@orca/wire/compat';
import type { PaneView } from '@orca/wire/contract';
import type { PaneRecord } from '../store/store.ts';
import type { LivePane, Verdict } from './live-pane.ts';
import { candidateOf } from './resume-candidates.ts';

/** What `orca terminal show` / `orca ls` report about a pane: the contract's view (`@orca/wire/contract`). */
export type { PaneView } from '@orca/wire/contract';

/** The last path segment of a pane's argv[0] (`/usr/bin/bash` → `bash`). */
export function commandName(argv: readonly string[]): string {
  const file = argv[0] ?? '';
  return file.slice(file.lastIndexOf('/') + 1) || file;
}

/** The newest published verdict of a pane and its time (the publisher's `latest`). */
export type PublishedVerdict = { readonly verdict: Verdict; readonly at: number } | null;

/**
 * Builds the view of a live pane (with its rendered screen as `tail` when asked); its verdict is
 * the newest published one, as for a stored pane.
 */
export function livePaneView(pane: LivePane, published: PublishedVerdict, withTail: boolean): PaneView {
  const verdict = published?.verdict ?? null;
  const view: PaneView = {
    handle: pane.record.handle,
    name: pane.record.name,
    paneKey: pane.record.paneKey,
    cwd: pane.record.cwd,
    guest: pane.record.guest,
    command: commandName(pane.record.argv),
    agent: pane.status.agent(),
    title: pane.screen.title()?.text ?? null,
    status: verdict?.status ?? null,
    isRunningAgent: verdict?.isRunningAgent ?? false,
  };
  // Why: an absent agentWait (not evaluated) must stay absent, never become null.
  writeTri(view as unknown as Record<string, unknown>, 'agentWait', readTri(verdict, 'agentWait'));
  if (published) view.changedAt = published.at;
  if (pane.exit) view.exited = { code: pane.exit.code, signal: pane.exit.signal, cause: pane.exit.cause ?? 'exit' };
  else view.pid = pane.process.pid;
  if (pane.process.kept) view.kept = true;
  if (withTail) {
    const rows = pane.screen.currentRows();
    while (rows.length > 0 && rows[rows.length - 1]?.trim() === '') rows.pop();
    view.tail = rows.join('\n');
  }
  return view;
}

/** Builds the view of a pane known only from the store (its PTY is gone). */
export function storedPaneView(record: PaneRecord, published: PublishedVerdict): PaneView {
  const verdict = published?.verdict ?? null;
  const view: PaneView = {
    handle: record.handle,
    name: record.name,
    paneKey: record.paneKey,
    cwd: record.cwd,
    guest: record.guest,
    command: commandName(record.argv),
    agent: record.agent,
    title: record.title,
    status: verdict?.status ?? null,
    isRunningAgent: verdict?.isRunningAgent ?? false,
  };
  writeTri(view as unknown as Record<string, unknown>, 'agentWait', readTri(verdict, 'agentWait'));
  if (published) view.changedAt = published.at;
  if (record.exitedAt !== null) {
    view.exited = { code: record.exitCode, signal: record.exitSignal, cause: record.exitCause ?? 'exit' };
  }
  const candidate = candidateOf(record);
  if (candidate) view.resume = candidate.plan;
  if (record.resumedAs) view.resumedAs = record.resumedAs;
  return view;
}
