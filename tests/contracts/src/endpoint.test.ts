import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEndpointText, ENDPOINT_VALUE_RE as TEMPLATE_VALUE_RE } from '@orca/hook-templates';
import {
  HOOK_PROTOCOL_VERSION,
  ENDPOINT_VALUE_RE as RELAY_VALUE_RE,
  renderEndpointFile,
  writeEndpointFile,
} from '@orca/relay/listener';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const safeValue = fc.stringMatching(/^[A-Za-z0-9._:/-]{1,40}$/);
const anyValue = fc.oneof(
  safeValue,
  fc.string({ maxLength: 40 }),
  fc.constantFrom('$(id)', '`id`', 'a;echo x', 'a\r', 'a b'),
);

describe('relay endpoint writer ↔ hook-templates endpoint parser', () => {
  it('both packages guard values with the same pattern', () => {
    expect(RELAY_VALUE_RE.source).toBe(TEMPLATE_VALUE_RE.source);
  });

  it('whatever the relay renders, hook-templates parses back to the same values (env and cmd)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 65_535 }),
        safeValue,
        safeValue,
        fc.option(safeValue, { nil: undefined }),
        (port, token, env, transport) => {
          for (const format of ['env', 'cmd'] as const) {
            const text = renderEndpointFile({ port, token, env, version: HOOK_PROTOCOL_VERSION, transport }, format);
            expect(text).toBeDefined();
            expect(parseEndpointText(text ?? '')).toEqual({
              port: String(port),
              token,
              env,
              version: HOOK_PROTOCOL_VERSION,
              ...(transport === undefined ? {} : { transport }),
            });
          }
        },
      ),
    );
  });

  it('the relay refuses exactly the values the parser could not carry', () => {
    fc.assert(
      fc.property(anyValue, (token) => {
        const text = renderEndpointFile({ port: 4711, token, env: 'local', version: HOOK_PROTOCOL_VERSION }, 'env');
        if (text === undefined) {
          expect(TEMPLATE_VALUE_RE.test(token)).toBe(false);
        } else {
          expect(parseEndpointText(text)?.token).toBe(token);
        }
      }),
    );
  });

  it('the written file (0600 in a 0700 dir) parses back through hook-templates', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'orca-contract-')), 'agent-hooks');
    const ok = await writeEndpointFile(
      dir,
      { port: 40_123, token: 'f'.repeat(32), env: 'local', version: HOOK_PROTOCOL_VERSION },
      { format: 'env' },
    );
    expect(ok).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'endpoint.env')).mode & 0o777).toBe(0o600);
    const text = readFileSync(join(dir, 'endpoint.env'), 'utf8');
    expect(parseEndpointText(text)).toEqual({
      port: '40123',
      token: 'f'.repeat(32),
      env: 'local',
      version: HOOK_PROTOCOL_VERSION,
    });
  });
});
