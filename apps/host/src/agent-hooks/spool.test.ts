import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drainSpool } from './spool.ts';

function spoolWith(lines: string[]): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'orca-spool-'));
  const file = join(dir, 'pane-a.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { dir, file };
}

describe('drainSpool', () => {
  it('truncates a file only once what its lines queued is committed', async () => {
    const { dir, file } = spoolWith(['{"n":1}', 'not json', '{"n":2}']);
    const seen: unknown[] = [];
    let committedAt = -1;
    const report = await drainSpool(
      dir,
      (line) => seen.push(line) > 0,
      async () => {
        committedAt = seen.length;
        expect(readFileSync(file, 'utf8')).not.toBe('');
      },
    );
    expect(report).toEqual({ accepted: 2, dropped: 1 });
    expect(committedAt).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it('keeps the file when the commit fails, so the next drain replays it', async () => {
    const { dir, file } = spoolWith(['{"n":1}']);
    await drainSpool(
      dir,
      () => true,
      () => Promise.reject(new Error('disk full')),
    );
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n');
    const again = await drainSpool(dir, () => true);
    expect(again.accepted).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});
