import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printableBlock, printableField, terminalSafeJson, terminalSafeJsonText } from '../printable.ts';

const hostileUnit = fc.oneof(
  fc.constantFrom('\x1b', '\x07', '\x9b', '\x9d', '\x7f', '\n', '\r', '\t', '\0', '\x85', '\\'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit: hostileUnit, maxLength: 60 });
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('terminal-safe text', () => {
  it('escapes C0, DEL and C1 visibly and keeps everything else, backslashes included', () => {
    expect(printableField('a\x1b]0;x\x07\x7f\u009b\tb\n')).toBe('a\\x1b]0;x\\x07\\x7f\\u009b\\x09b\\x0a');
    expect(printableField('C:\\Users\\me é')).toBe('C:\\Users\\me é');
    expect(printableBlock('a\x1b\nb')).toBe('a\\x1b\nb');
    expect(terminalSafeJson({ a: '\x7f\u0085' })).toBe('{"a":"\\u007f\\u0085"}');
    expect(terminalSafeJson(undefined)).toBe('null');
    expect(terminalSafeJsonText('{"a":"\u009b"}')).toBe('{"a":"\\u009b"}');
  });

  it('a field holds no control character, a block none but newlines, and JSON parses back to the value', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(ANY_CONTROL.test(printableField(t))).toBe(false);
        expect(CONTROL_BUT_NEWLINE.test(printableBlock(t))).toBe(false);
        const json = terminalSafeJson({ t }, 2);
        expect(/[\u007f-\u009f]/.test(json)).toBe(false);
        expect(JSON.parse(json)).toEqual({ t });
      }),
    );
  });
});
