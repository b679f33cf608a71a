import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { EXITED_KEPT_MAX, KEEPER_FILE_MODE } from './constants.ts';
import type { KeptExit } from './kept-pane.ts';

/** Name of the file, in the keeper's state dir, of exits no host collected before the keeper left. */
export const KEPT_EXITS_FILE = 'exits.json';

const ExitsSchema = z.record(
  z.string().min(1).max(200),
  z.object({ code: z.number().int().nullable(), signal: z.number().int().nullable(), at: z.number() }),
);

/** Reads the exits a keeper left (untrusted bytes); empty when absent or malformed. */
export function readKeptExits(path: string): Map<string, KeptExit> {
  try {
    const parsed = ExitsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return new Map(parsed.success ? Object.entries(parsed.data) : []);
  } catch {
    return new Map();
  }
}

/**
 * Adds `exits` to the file at `path` (0600, replaced atomically), keeping the newest
 * `EXITED_KEPT_MAX`. Why: a keeper that leaves when its last pane ended by itself and no host came
 * must not leave the next host to take those panes for lost with it (resumable), when they ended.
 */
export function writeKeptExits(path: string, exits: ReadonlyMap<string, KeptExit>): void {
  if (exits.size === 0) return;
  const all = [...readKeptExits(path), ...exits].sort((a, b) => a[1].at - b[1].at).slice(-EXITED_KEPT_MAX);
  const tmp = join(dirname(path), `.exits-${process.pid}-${randomUUID()}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(Object.fromEntries(all))}\n`, { mode: KEEPER_FILE_MODE, flag: 'wx' });
  renameSync(tmp, path);
}

/** Removes the file once a host has recorded what it held. */
export function removeKeptExits(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // none
  }
}
