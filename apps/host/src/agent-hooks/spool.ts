import { readdir, readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';

/** One spooled line as a hook script wrote it: untrusted, passed to the trust boundary as is. */
export type SpooledLine = unknown;

/** True once `work` resolves, false if it rejects (a spool is kept when its commit failed). */
export function succeeds(work: Promise<unknown>): Promise<boolean> {
  return work.then(
    () => true,
    () => false,
  );
}

/**
 * Reads every `spool/*.jsonl` file, hands each parseable line to `accept`, waits for `committed`
 * (what `accept` stored is on disk), then truncates the file; a failed commit keeps the file for
 * the next drain. Lines that are not JSON are counted as dropped. Never throws on content.
 */
export async function drainSpool(
  dir: string,
  accept: (line: SpooledLine) => boolean,
  committed: () => Promise<void> = () => Promise.resolve(),
): Promise<{ accepted: number; dropped: number }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return { accepted: 0, dropped: 0 };
  }
  let accepted = 0;
  let dropped = 0;
  for (const name of names.sort()) {
    const file = join(dir, name);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        dropped += 1;
        continue;
      }
      if (accept(parsed)) accepted += 1;
      else dropped += 1;
    }
    // Why: accepted lines are only queued for the store; the file goes once they are committed.
    if (!(await succeeds(committed()))) continue;
    await truncate(file, 0).catch(() => undefined);
  }
  return { accepted, dropped };
}
