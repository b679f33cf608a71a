import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHostLogger } from './logger.ts';

const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Waits until the async pino destination wrote `count` lines. */
async function linesOf(file: string, count: number): Promise<string[]> {
  let lines: string[] = [];
  for (let i = 0; i < 200 && lines.length < count; i++) {
    await new Promise((r) => setTimeout(r, 10));
    lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.length > 0);
  }
  return lines;
}

describe('the host log file', () => {
  it('holds no raw C0, DEL or C1 character from logged text, and every line parses back to the original', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'orca-log-')), 'host.log');
    const log = createHostLogger(file, 'info');
    const texts = fc.sample(fc.string({ unit: 'binary', maxLength: 40 }), 200);
    texts.push('evil\u001b]0;PWNED\u0007\u001b[2J', 'c1\u009b31m del\u007f');
    for (const cwd of texts) log.info({ cwd }, `pane at ${cwd}`);
    log.flush();
    const lines = await linesOf(file, texts.length);
    expect(lines).toHaveLength(texts.length);
    lines.forEach((line, i) => {
      expect(RAW_CONTROL.test(line)).toBe(false);
      const parsed = JSON.parse(line) as { cwd: string; msg: string };
      expect(parsed.cwd).toBe(texts[i]);
      expect(parsed.msg).toBe(`pane at ${texts[i]}`);
    });
  });

  it('rotates by size and keeps a bounded number of files, each 0600', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orca-log-'));
    const file = join(dir, 'host.log');
    const log = createHostLogger(file, 'info', { maxBytes: 4 * 1024, files: 3 });
    const line = 'x'.repeat(200);
    // A flood of refusals, as a stream of attempts writes them: in many turns of the event loop.
    for (let i = 0; i < 400; i++) {
      log.warn({ i, line }, 'web attempts refused');
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 1));
    }
    await until('four files', () => readdirSync(dir).length === 4);
    log.info({ last: true }, 'the last line');
    await until('the last line written', () => readFileSync(file, 'utf8').includes('the last line'));
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['host.log', 'host.log.1', 'host.log.2', 'host.log.3']);
    for (const f of files) {
      expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
      // About the limit each (a write may overshoot it), nowhere near the 90 KB written.
      expect(statSync(join(dir, f)).size).toBeLessThan(12 * 1024);
    }
    const firstI = (f: string): number =>
      (JSON.parse(readFileSync(join(dir, f), 'utf8').split('\n')[0] ?? '{}') as { i: number }).i;
    // host.log.1 is the newest rotated file, host.log.3 the oldest kept; the first lines are gone.
    expect(firstI('host.log.1')).toBeGreaterThan(firstI('host.log.3'));
    expect(firstI('host.log.3')).toBeGreaterThan(0);
  });
});
