import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLaunch } from './launch-check.ts';

describe('checkLaunch', () => {
  const root = mkdtempSync(join(tmpdir(), 'orca-launch-'));
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'agent'), '#!/bin/sh\n');
  chmodSync(join(bin, 'agent'), 0o755);
  writeFileSync(join(bin, 'notes'), 'not a program');

  it('passes a program on PATH, an absolute or relative executable path', () => {
    expect(() => checkLaunch('agent', root, `/nowhere:${bin}`)).not.toThrow();
    expect(() => checkLaunch(join(bin, 'agent'), root, '')).not.toThrow();
    expect(() => checkLaunch('./bin/agent', root, '')).not.toThrow();
    expect(() => checkLaunch('sh', root, undefined)).not.toThrow();
  });

  it('refuses a missing cwd, an unknown command and a file that is not executable, saying which', () => {
    expect(() => checkLaunch('agent', join(root, 'gone'), bin)).toThrow(/directory .*gone does not exist/);
    expect(() => checkLaunch('no-such-agent', root, bin)).toThrow(/command not found/);
    expect(() => checkLaunch(join(bin, 'notes'), root, bin)).toThrow(/not an executable file/);
    expect(() => checkLaunch('notes', root, bin)).toThrow(expect.objectContaining({ code: 'ORCA_HOST_PANE_SPAWN' }));
  });
});
