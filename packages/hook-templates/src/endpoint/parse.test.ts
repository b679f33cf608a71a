import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/fixtures.ts';
import { availableShells } from '../../test/support/shells.ts';
import { parseEndpointFunction } from '../emit/posix-functions.ts';
import { formatEndpointCmd, formatEndpointEnv } from './format.ts';
import { type EndpointValues, parseEndpointText } from './parse.ts';

const KEYS = ['PORT', 'TOKEN', 'ENV', 'VERSION', 'TRANSPORT'];
const lineArb = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('', 'set ', 'SET ', ' ', 'export '),
      fc.constantFrom(...KEYS, 'PANE_KEY', 'port'),
      fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9._:/-]{1,12}$/),
        fc.stringMatching(/^[0-9]{1,7}$/),
        fc.constantFrom('', '$(touch canary)', '`id`', 'a;echo hi', 'a b', 'é', '"x"', "'y'", 'a=b', '%PATH%', '!x!'),
      ),
      fc.constantFrom('', '\r', '\r\r', ' '),
    )
    .map(([p, k, v, e]) => `${p}ORCA_AGENT_HOOK_${k}=${v}${e}`),
  fc.constantFrom('echo pwned', '# comment', '', 'PATH=/evil', 'ORCA_PANE_KEY=x', '\r', 'ORCA_AGENT_HOOK_PORT'),
  fc.string({ maxLength: 20 }).filter((s) => !s.includes('\0')),
);
const fileArb = fc.array(lineArb, { maxLength: 70 }).map((lines) => lines.join('\n'));

describe('parseEndpointText', () => {
  it('parses both file forms and ignores everything else', () => {
    const v: EndpointValues = {
      port: '4711',
      token: 'tok-1.a:b/c',
      env: 'local',
      version: '2',
      transport: 'raw-json-v1',
    };
    expect(parseEndpointText(formatEndpointEnv(v))).toEqual(v);
    expect(parseEndpointText(formatEndpointCmd(v))).toEqual(v);
    expect(parseEndpointText('ORCA_AGENT_HOOK_PORT=123456\nORCA_AGENT_HOOK_TOKEN=t\n')).toBeNull();
    expect(parseEndpointText('ORCA_AGENT_HOOK_PORT=1\nORCA_AGENT_HOOK_TOKEN=$(id)\n')).toBeNull();
    expect(
      parseEndpointText(
        'ORCA_AGENT_HOOK_PORT=1\nORCA_AGENT_HOOK_PORT=x\nORCA_AGENT_HOOK_TOKEN=t\nORCA_AGENT_HOOK_TOKEN=u\n',
      ),
    ).toEqual({ port: '1', token: 'u' });
    expect(parseEndpointText(`${'\n'.repeat(64)}ORCA_AGENT_HOOK_PORT=1\nORCA_AGENT_HOOK_TOKEN=t\n`)).toBeNull();
  });

  it('never throws and only yields allow-listed values (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fileArb, fc.string()), (text) => {
        const r = parseEndpointText(text);
        if (r === null) return;
        expect(r.port).toMatch(/^[0-9]{1,5}$/);
        for (const value of Object.values(r)) expect(value).toMatch(/^[A-Za-z0-9._:/-]+$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('format → parse round-trips (property)', () => {
    const value = fc.stringMatching(/^[A-Za-z0-9._:/-]{1,16}$/);
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{1,5}$/),
        value,
        fc.option(value, { nil: undefined }),
        (port, token, env) => {
          const v: EndpointValues = { port, token, ...(env !== undefined ? { env } : {}) };
          expect(parseEndpointText(formatEndpointEnv(v))).toEqual(v);
          expect(parseEndpointText(formatEndpointCmd(v))).toEqual(v);
        },
      ),
    );
  });
});

describe.each(availableShells().map((s) => [s.name, s] as const))(
  'sh parser under %s agrees with parseEndpointText',
  (_n, shell) => {
    it('on fuzzed files (one shell run per batch)', () => {
      const dir = tempDir();
      const files = fc.sample(fileArb, { numRuns: 150, seed: 7 });
      files.push(
        'ORCA_AGENT_HOOK_PORT=1\r\nset ORCA_AGENT_HOOK_TOKEN=t\r\n',
        'ORCA_AGENT_HOOK_PORT=1\nORCA_AGENT_HOOK_TOKEN=t',
      );
      for (const [i, text] of files.entries()) writeFileSync(join(dir, `f${i}`), text);
      const driver = `${parseEndpointFunction(true)}
for f in "$@"; do
  if orca_parse_endpoint "$f"; then printf '%s|%s|%s|%s|%s\\n' "$orca_ep_port" "$orca_ep_token" "$orca_ep_env" "$orca_ep_version" "$orca_ep_transport"; else echo NULL; fi
done
`;
      writeFileSync(join(dir, 'driver.sh'), driver);
      const out = execFileSync(
        shell.argv[0] ?? 'sh',
        [...shell.argv.slice(1), join(dir, 'driver.sh'), ...files.map((_, i) => join(dir, `f${i}`))],
        {
          encoding: 'utf8',
          env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
        },
      );
      const want = files.map((text) => {
        const r = parseEndpointText(text);
        return r === null ? 'NULL' : [r.port, r.token, r.env ?? '', r.version ?? '', r.transport ?? ''].join('|');
      });
      expect(out.split('\n').slice(0, -1)).toEqual(want);
    });
  },
);
