import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir, writeText } from '../../test/support.ts';
import { describeFailure, describeHook, describeIssue, describeJsonLine, describeRecord } from './human-lines.ts';
import { runCli } from './run-cli.ts';

// Any code point, with the ones a terminal acts on drawn often.
const hostileUnit = fc.oneof(
  fc.constantFrom('\x1b', '\x07', '\x9b', '\x9d', '\x7f', '\n', '\r', '\t', '\0', '\x85'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit: hostileUnit, maxLength: 40 });
// C0 (newline too), DEL, C1.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('orca-command-hooks plain output escapes control characters from outside', () => {
  it('every formatter gives one line with no C0, DEL or C1', () => {
    fc.assert(
      fc.property(text, text, text, text, fc.boolean(), fc.jsonValue(), (a, b, c, d, flag, value) => {
        const run = {
          kind: 'run',
          event: a,
          dialect: b,
          hookId: c,
          exitCode: flag ? 1 : null,
          timedOut: flag,
          durationMs: 3,
          parseOk: flag,
          failed: !flag,
          runtimeError: d,
          decision: flag ? { permission: a } : {},
        } as never;
        const dropped = { kind: 'dropped', event: a, hookId: b, reason: c } as never;
        const issue = { code: a, file: b, path: '', line: 1, column: 2, message: c } as never;
        for (const line of [
          describeRecord(run),
          describeRecord(dropped),
          describeHook({ dialect: a, wireEvent: b, event: c, id: d, timeoutMs: 5, command: a }),
          describeIssue('warning', issue, false),
          describeIssue('error', issue, true),
          describeJsonLine(a, value),
          describeJsonLine('outcome', { reason: b }),
          describeFailure(`${a}\n${b}`),
        ])
          expect(line).not.toMatch(ANY_CONTROL);
      }),
    );
  });

  it('list and dry-run of a real hook whose command and output carry escapes print them escaped', async () => {
    const root = tempDir();
    const command = "printf 'no \\033]0;PWNED\\007 today\\302\\233' >&2; exit 2 # \x1b[2J";
    writeText(
      root,
      '.claude/settings.json',
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] } }),
    );
    const chunks: string[] = [];
    const io = {
      stdout: (t: string) => chunks.push(t),
      stderr: (t: string) => chunks.push(t),
      readStdin: async () => '',
      env: { PATH: process.env.PATH ?? '' },
    };
    const home = tempDir();
    expect(await runCli(['list', '--root', root, '--home', home], io)).toBe(0);
    const args = ['dry-run', '--root', root, '--home', home, '--event', 'beforeSubmitPrompt'];
    expect(await runCli([...args, '--payload', '{"prompt":"hi"}'], io)).toBe(0);
    expect(await runCli([...args, '--payload', '{\x1b[2J'], io)).toBe(2);
    expect(await runCli(['dry-run', '--root', root, '--event', 'x\x1b]0;t\x07', '--payload', '{}'], io)).toBe(2);
    expect(await runCli(['list', '--root', root, '--bogus\u009b'], io)).toBe(2);
    const out = chunks.join('');
    expect(out).toContain('exit 2 # \\x1b[2J');
    expect(out).toContain('no \\u001b]0;PWNED\\u0007 today\\u009b');
    for (const chunk of chunks) expect(chunk.replace(/\n/g, '')).not.toMatch(ANY_CONTROL);
  });
});
