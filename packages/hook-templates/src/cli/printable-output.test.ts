import { printableBlock, printableField, terminalSafeJson } from '@orca/shared/printable';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/fixtures.ts';
import { nodeInstallIo } from '../install/node-io.ts';
import { nodeVerifyIo } from '../verify/node-io.ts';
import { formatVerifyReport } from '../verify/verify.ts';
import type { VersionProbe } from '../versions/agent-version.ts';
import { formatInstallReports } from './format-install.ts';
import { runCli } from './program.ts';

// Any code point, with the ones a terminal acts on drawn often.
const hostileUnit = fc.oneof(
  fc.constantFrom('\x1b', '\x07', '\x9b', '\x9d', '\x7f', '\n', '\r', '\t', '\0', '\x85'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit: hostileUnit, maxLength: 40 });
// C0 (newline too), DEL, C1.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function noControlButLineEnds(out: string): void {
  for (const line of out.split('\n')) expect(line).not.toMatch(ANY_CONTROL);
}

describe('orca-hooks output escapes control characters from outside', () => {
  it('printable escapes visibly', () => {
    expect(printableField('a\x1b]0;x\x07\x7f\u009b\tb\n')).toBe('a\\x1b]0;x\\x07\\x7f\\u009b\\x09b\\x0a');
    expect(printableBlock('a\x1b\nb')).toBe('a\\x1b\nb');
    expect(terminalSafeJson({ a: '\x7f\u0085' })).toBe('{"a":"\\u007f\\u0085"}');
  });

  it('install and verify reports: one line per item, no C0, DEL or C1', () => {
    fc.assert(
      fc.property(text, text, text, text, (a, b, c, d) => {
        const install = formatInstallReports([
          {
            agent: a,
            state: 'installed' as never,
            files: [
              { path: b, action: c as never, mode: 0 },
              { path: d, action: 'refused', mode: 0 },
            ],
            version: { version: c, from: d },
            warnings: [a],
            error: { code: b as never, message: c },
          },
          { agent: a, state: 'error' as never, files: [], warnings: [], error: { code: d as never, message: a } },
        ]);
        expect(install.split('\n')).toHaveLength(6);
        noControlButLineEnds(install);
        const verify = formatVerifyReport({
          ok: false,
          shells: [],
          checks: [
            { id: a, ok: false, detail: b },
            { id: c, ok: true, detail: d },
          ],
          skipped: [{ id: d, reason: a }],
        } as never);
        expect(verify.split('\n')).toHaveLength(5);
        noControlButLineEnds(verify);
      }),
    );
  });

  it('the CLI escapes a hostile home, agent --version output, script path and agent name', async () => {
    const home = `${tempDir()}/h\x1b]0;PWNED\x07\u009b\x7f`;
    const probe: VersionProbe = async () => '2.1.80 (Claude\x1b[2J Code)\n';
    const chunks: string[] = [];
    const io = {
      stdout: (t: string) => chunks.push(t),
      stderr: (t: string) => chunks.push(t),
      install: nodeInstallIo,
      verify: nodeVerifyIo,
      homedir: home,
      env: {},
      versionProbe: probe,
    };
    expect(await runCli(['install', '--home', home, '--agents', 'claude', '--dry-run'], io)).toBe(0);
    expect(await runCli(['install', '--home', home, '--agents', 'claude', '--dry-run', '--json'], io)).toBe(0);
    expect(await runCli(['launcher', 'claude', '--platform', 'posix', '--script', `/s\x1b[2J.sh`], io)).toBe(0);
    expect(await runCli(['emit', 'x\x1b]0;t\x07', '--platform', 'posix'], io)).toBe(2);
    expect(await runCli(['verify', '--shells', 'x\u009b'], io)).toBe(2);
    expect(await runCli(['list', '--bogus\x1b'], io)).toBe(2);
    const out = chunks.join('');
    expect(out).toContain('h\\x1b]0;PWNED\\x07\\u009b\\x7f');
    noControlButLineEnds(out);
  });
});
