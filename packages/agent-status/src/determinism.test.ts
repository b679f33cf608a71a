import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

// The engine is pure (§13): no clock, no randomness, no timers but the probe gate's default delay.
const FORBIDDEN = [/Date\.now/, /new Date\b/, /performance\.now/, /Math\.random/, /setTimeout/];
const TIMER_ALLOWED = 'fusion/probe-gate.ts';

describe('determinism lint', () => {
  const files = sourceFiles(srcDir)
    .map((f) => relative(srcDir, f).replace(/\\/g, '/'))
    .filter((f) => !f.startsWith('cli/') && f !== 'cli.ts');

  it('finds the engine sources', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('src/ (bar the CLI) reads no clock, no randomness, starts no timer', () => {
    const hits: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(srcDir, file), 'utf8');
      for (const re of FORBIDDEN) {
        if (!re.test(text)) continue;
        if (re.source === 'setTimeout' && file === TIMER_ALLOWED) continue;
        hits.push(`${file}: ${re.source}`);
      }
    }
    expect(hits).toEqual([]);
  });

  it('no `?? null` on agentWait anywhere (absent must never become null)', () => {
    const hits: string[] = [];
    for (const file of sourceFiles(srcDir)) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/agentWait/.test(line) && /\?\?\s*null/.test(line) && !line.includes('FORBIDDEN-EXAMPLE')) {
          hits.push(`${relative(srcDir, file)}:${i + 1}`);
        }
      });
    }
    expect(hits).toEqual([]);
  });
});
