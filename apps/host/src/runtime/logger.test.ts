import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
