import { describe, expect, it } from 'vitest';
import { evidenceFromFlags } from '../src/cli/evidence-from-flags.ts';
import { evaluatePane } from '../src/fusion/evaluate-pane.ts';
import { createProbeGate } from '../src/fusion/probe-gate.ts';
import { loadCorpus } from './load-corpus.ts';

// Every tail-only corpus case keeps its verdict when the same text is rendered differently:
// ANSI colour on every word, CRLF line ends, a box border, rows padded to the pane width.
const WIDTHS = [40, 80, 120, 160, 200];
const colour = (line: string) => line.replace(/(\S+)/g, '\x1b[38;5;110m$1\x1b[0m');
const boxed = (line: string, width: number) => `│ ${line.padEnd(width - 4)} │`;

function variants(tail: string): [string, string][] {
  const lines = tail.split('\n');
  const longest = Math.max(...lines.map((l) => l.length));
  const out: [string, string][] = [
    ['colour', lines.map(colour).join('\n')],
    ['crlf', lines.join('\r\n')],
    ['colour+crlf', lines.map(colour).join('\r\n')],
  ];
  for (const w of WIDTHS) {
    if (longest <= w) out.push([`padded-${w}`, lines.map((l) => l.padEnd(w)).join('\n')]);
    if (longest <= w - 4) out.push([`boxed-${w}`, lines.map((l) => boxed(l, w)).join('\r\n')]);
  }
  return out;
}

describe('rendering keeps the verdict', () => {
  const cases = loadCorpus().filter(([, c]) => c.screen === undefined && c.tail.trim() !== '');
  it('covers the dialog fixtures', () => {
    expect(cases.length).toBeGreaterThan(40);
  });
  for (const [name, c] of cases) {
    it(name, async () => {
      const base = evidenceFromFlags({ ...c.evidence, tail: c.tail });
      const expected = await evaluatePane(base, { gate: createProbeGate() });
      for (const [label, tail] of variants(c.tail)) {
        const got = await evaluatePane({ ...base, tail }, { gate: createProbeGate() });
        expect(got, `${name} rendered ${label}`).toStrictEqual(expected);
      }
    });
  }
});
