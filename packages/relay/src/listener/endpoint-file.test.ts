import { chmod, mkdir, mkdtemp, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_PROTOCOL_VERSION } from '../constants.ts';
import { writeEndpointFile } from './endpoint-file.ts';

const values = { port: 4711, token: 'abc-DEF_1.2', env: 'remote', version: HOOK_PROTOCOL_VERSION };
const tmp = () => mkdtemp(join(tmpdir(), 'orca-endpoint-'));

describe('writeEndpointFile', () => {
  it('writes the exact env bytes with 0700 dir and 0600 file, no tmp left', async () => {
    const dir = join(await tmp(), 'a', 'b');
    expect(await writeEndpointFile(dir, values, { format: 'env' })).toBe(true);
    expect(await readFile(join(dir, 'endpoint.env'), 'utf8')).toBe(
      'ORCA_AGENT_HOOK_PORT=4711\nORCA_AGENT_HOOK_TOKEN=abc-DEF_1.2\nORCA_AGENT_HOOK_ENV=remote\nORCA_AGENT_HOOK_VERSION=2\n',
    );
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'endpoint.env'))).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['endpoint.env']);
  });

  it('writes the exact cmd bytes with the optional transport', async () => {
    const dir = await tmp();
    expect(await writeEndpointFile(dir, { ...values, transport: 'raw-json-v1' }, { format: 'cmd' })).toBe(true);
    expect(await readFile(join(dir, 'endpoint.cmd'), 'utf8')).toBe(
      'set ORCA_AGENT_HOOK_PORT=4711\r\nset ORCA_AGENT_HOOK_TOKEN=abc-DEF_1.2\r\nset ORCA_AGENT_HOOK_ENV=remote\r\nset ORCA_AGENT_HOOK_VERSION=2\r\nset ORCA_AGENT_HOOK_TRANSPORT=raw-json-v1\r\n',
    );
  });

  it('tightens a looser existing directory', async () => {
    const dir = await tmp();
    await chmod(dir, 0o755);
    expect(await writeEndpointFile(dir, values, { format: 'env' })).toBe(true);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it.each(['a b', 'x;rm -rf', '$(id)', '', 'q"', "q'", 'a\nb', 'ü'])(
    'refuses unsafe value %j, old file intact',
    async (bad) => {
      const dir = await tmp();
      expect(await writeEndpointFile(dir, values, { format: 'env' })).toBe(true);
      const before = await readFile(join(dir, 'endpoint.env'), 'utf8');
      expect(await writeEndpointFile(dir, { ...values, token: bad }, { format: 'env' })).toBe(false);
      expect(await writeEndpointFile(dir, { ...values, transport: bad }, { format: 'env' })).toBe(false);
      expect(await readFile(join(dir, 'endpoint.env'), 'utf8')).toBe(before);
    },
  );

  it('sweeps stale tmps only', async () => {
    const dir = await tmp();
    await mkdir(dir, { recursive: true });
    const old = join(dir, '.endpoint-1-old.tmp');
    const fresh = join(dir, '.endpoint-2-fresh.tmp');
    await writeFile(old, 'x');
    await writeFile(fresh, 'x');
    const past = new Date(Date.now() - 6 * 60_000);
    await utimes(old, past, past);
    expect(await writeEndpointFile(dir, values, { format: 'env' })).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['.endpoint-2-fresh.tmp', 'endpoint.env']);
  });

  it('returns false (no throw) when the directory cannot be created', async () => {
    const base = await tmp();
    await writeFile(join(base, 'file'), 'x');
    expect(await writeEndpointFile(join(base, 'file', 'sub'), values, { format: 'env' })).toBe(false);
  });

  it('readers never see a torn file while writers race', async () => {
    const dir = await tmp();
    const a = { ...values, token: 'a'.repeat(3000) };
    const b = { ...values, port: 1, token: 'b'.repeat(5000) };
    expect(await writeEndpointFile(dir, a, { format: 'env' })).toBe(true);
    const seen = new Set<string>();
    let stop = false;
    const reader = (async () => {
      while (!stop) {
        seen.add(await readFile(join(dir, 'endpoint.env'), 'utf8'));
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let i = 0; i < 30; i++)
      await Promise.all([writeEndpointFile(dir, a, { format: 'env' }), writeEndpointFile(dir, b, { format: 'env' })]);
    stop = true;
    await reader;
    for (const s of seen)
      expect(
        [a.token, b.token].some((t) => s.includes(`ORCA_AGENT_HOOK_TOKEN=${t}\n`) && s.endsWith('VERSION=2\n')),
      ).toBe(true);
    expect(await readdir(dir)).toEqual(['endpoint.env']);
  });
});
