import { describe, expect, it } from 'vitest';
import { parseHookConfig } from './parse.ts';

describe('the shared vendor event walk (Claude and Cursor files)', () => {
  it.each([
    ['claude', 'Claude', 'Notification', 'matcher groups'],
    ['cursor', 'Cursor', 'beforeTabFileRead', 'hooks'],
  ] as const)(
    '%s: unknown and unsupported events warn, a non-array value is an error',
    (dialect, vendor, unsupported, entries) => {
      const text = JSON.stringify({ hooks: { Bogus: [], [unsupported]: [], stop: 'x', Stop: 'x' } });
      const r = parseHookConfig(dialect, text, '/r/.x/f.json');
      const knownEvent = dialect === 'claude' ? 'Stop' : 'stop';
      const otherCase = dialect === 'claude' ? 'stop' : 'Stop';
      expect({
        warnings: r.warnings.map((w) => w.message),
        errors: r.errors.map((e) => e.message),
        hooks: r.hooks,
      }).toEqual({
        warnings: [
          `/hooks/Bogus: unknown ${vendor} event "Bogus" ignored`,
          `/hooks/${unsupported}: unsupported ${vendor} event "${unsupported}" ignored`,
          `/hooks/${otherCase}: unknown ${vendor} event "${otherCase}" ignored`,
        ],
        errors: [`/hooks/${knownEvent}: expected array of ${entries}, got "x"`],
        hooks: [],
      });
    },
  );

  it('a non-object root or hooks value is one error each', () => {
    expect(parseHookConfig('claude', '[]', '/r/.x/f.json').errors.map((e) => e.message)).toEqual([
      '/: expected object, got []',
    ]);
    expect(parseHookConfig('cursor', '{"hooks":3}', '/r/.x/f.json').errors.map((e) => e.message)).toEqual([
      '/hooks: expected object, got 3',
    ]);
  });
});
