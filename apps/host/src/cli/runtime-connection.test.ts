import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostError } from '../errors.ts';
import { parseRemoteUrl, remoteToken } from './runtime-connection.ts';

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof HostError ? error.code : 'not a HostError';
  }
}

describe('--remote and its token', () => {
  it('accepts ws:// loopback addresses with a port and refuses anything else as a usage error', () => {
    expect(parseRemoteUrl('ws://127.0.0.1:7070')).toBe('ws://127.0.0.1:7070');
    expect(parseRemoteUrl('ws://localhost:7070/')).toBe('ws://localhost:7070');
    expect(parseRemoteUrl('ws://[::1]:7070')).toBe('ws://[::1]:7070');
    for (const bad of [
      'ws://10.0.0.1:7070',
      'wss://127.0.0.1:7070',
      'ws://127.0.0.1',
      'http://127.0.0.1:1',
      'x',
      'ws://u:p@127.0.0.1:1',
    ]) {
      expect([bad, codeOf(() => parseRemoteUrl(bad))]).toEqual([bad, 'ORCA_HOST_USAGE']);
    }
  });

  it('reads the token from --token-file, else the env; refuses a missing or header-breaking one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orca-tok-'));
    const file = join(dir, 'runtime-token');
    writeFileSync(file, 'ab12\n', { mode: 0o600 });
    expect(remoteToken(file, { ORCA_RUNTIME_TOKEN: 'ignored' })).toBe('ab12');
    expect(remoteToken(undefined, { ORCA_RUNTIME_TOKEN: ' cd34 ' })).toBe('cd34');
    expect(codeOf(() => remoteToken(undefined, {}))).toBe('ORCA_HOST_USAGE');
    expect(codeOf(() => remoteToken(undefined, { ORCA_RUNTIME_TOKEN: 'a\r\nX-Evil: 1' }))).toBe('ORCA_HOST_USAGE');
    writeFileSync(file, 'a b\n');
    expect(codeOf(() => remoteToken(file, {}))).toBe('ORCA_HOST_AUTH');
    expect(codeOf(() => remoteToken(join(dir, 'missing'), {}))).toBe('ORCA_HOST_AUTH');
    writeFileSync(file, 'a'.repeat(5000));
    chmodSync(file, 0o600);
    expect(codeOf(() => remoteToken(file, {}))).toBe('ORCA_HOST_AUTH');
  });
});
