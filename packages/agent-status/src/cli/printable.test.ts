import { printableBlock, printableField, terminalSafeJson } from '@orca/shared/printable';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { titleLine, verdictJson, verdictLine } from './format.ts';
import { type CliIo, nodeIo, oneLine, runCli } from './run-cli.ts';

// Any code point, with the ones a terminal acts on drawn often.
const hostileUnit = fc.oneof(
  fc.constantFrom('\x1b', '\x07', '\x9b', '\x9d', '\x7f', '\n', '\r', '\t', '\0', '\x85'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit: hostileUnit, maxLength: 40 });
// C0 (newline too), DEL, C1.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('orca-status output escapes control characters from outside', () => {
  it('printable escapes visibly', () => {
    expect(printableField('a\x1b]0;x\x07\x7f\u009b\tb\n')).toBe('a\\x1b]0;x\\x07\\x7f\\u009b\\x09b\\x0a');
    expect(printableBlock('a\x1b\nb')).toBe('a\\x1b\nb');
    expect(terminalSafeJson({ a: '\x7f\u0085' })).toBe('{"a":"\\u007f\\u0085"}');
  });

  it('verdict lines, title lines and error lines are one line with no C0, DEL or C1', () => {
    fc.assert(
      fc.property(text, text, text, fc.option(fc.integer()), fc.boolean(), (a, b, c, since, running) => {
        const verdict = {
          status: a,
          isRunningAgent: running,
          agentWait: { source: b, reason: c, ...(since === null ? {} : { since }) },
        } as never;
        expect(verdictLine(verdict)).not.toMatch(ANY_CONTROL);
        expect(titleLine({ status: a, agent: b, kind: c } as never)).not.toMatch(ANY_CONTROL);
        expect(oneLine(`${a}\n${b}`)).not.toMatch(ANY_CONTROL);
        const json = verdictJson(verdict);
        expect(json).not.toMatch(ANY_CONTROL);
        expect(JSON.parse(json)).toMatchObject({ status: a, agentWait: { source: b, reason: c } });
      }),
    );
  });

  it('the real CLI escapes a hostile title, a hostile path in an error and a hostile flag', async () => {
    await fc.assert(
      fc.asyncProperty(text, async (s) => {
        fc.pre(s !== 'help');
        const chunks: string[] = [];
        const io: CliIo = { ...nodeIo, stdout: (t) => chunks.push(t), stderr: (t) => chunks.push(t) };
        await runCli(['title', s], io);
        await runCli(['title', s, '--json'], io);
        await runCli(['classify', '--tail', `/nonexistent/${s}`], io);
        await runCli([`--${s}`], io);
        expect(chunks.length).toBeGreaterThanOrEqual(4);
        for (const chunk of chunks) {
          expect(chunk.endsWith('\n')).toBe(true);
          expect(chunk.slice(0, -1)).not.toMatch(ANY_CONTROL);
        }
      }),
      { numRuns: 50 },
    );
  });
});
