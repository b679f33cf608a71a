import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { printableBlock, printableField } from '@orca/shared/printable';
import { until } from '@orca/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../test/helpers/memory-relay.ts';
import { runGuestRelay } from './run-guest-relay.ts';

// Any code point, with the ones a terminal acts on drawn often.
const hostileUnit = fc.oneof(
  fc.constantFrom('\x1b', '\x07', '\x9b', '\x9d', '\x7f', '\n', '\r', '\t', '\0', '\x85'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit: hostileUnit, maxLength: 40 });
// C0 (newline too), DEL, C1.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('orca-relay stderr diagnostics escape control characters from outside', () => {
  it('printableField leaves no control character; printableBlock only newlines', () => {
    expect(printableField('a\x1b]0;x\x07\x7f\u009b\tb\n')).toBe('a\\x1b]0;x\\x07\\x7f\\u009b\\x09b\\x0a');
    fc.assert(
      fc.property(text, (s) => {
        expect(printableField(s)).not.toMatch(ANY_CONTROL);
        expect(printableBlock(s).replace(/\n/g, '')).not.toMatch(ANY_CONTROL);
      }),
    );
  });

  it('a HOME carrying escapes is quoted escaped when the endpoint file cannot be written', async () => {
    // Why: HOME is a regular file, so the endpoint directory under it cannot be made.
    const home = join(await mkdtemp(join(tmpdir(), 'orca-relay-esc-')), 'h\x1b]0;PWNED\x07\u009b\x7f');
    writeFileSync(home, '');
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    stdout.resume();
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (b: Buffer) => {
      err += b.toString('utf8');
    });
    const relay = runGuestRelay({
      env: { ORCA_AGENT_HOOK_PORT: String(await freePort()), ORCA_AGENT_HOOK_TOKEN: 't' },
      stdin,
      stdout,
      stderr,
      home,
    });
    await until('the endpoint-file diagnostic on stderr', () => err.includes('could not write endpoint file'));
    stdin.end();
    await relay.exited;
    expect(err).toContain('h\\x1b]0;PWNED\\x07\\u009b\\x7f');
    expect(err.replace(/\n/g, '')).not.toMatch(ANY_CONTROL);
  });
});
