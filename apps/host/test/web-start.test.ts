import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOrca } from './cli-process.ts';

describe('orca start --web refusals (the real CLI)', () => {
  it('a non-loopback address without --web-bind-any is a usage error; nothing starts', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-web-start-')), 'data');
    const run = await runOrca(['--data-dir', dataDir, 'start', '--web', '0.0.0.0:0']);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
    expect(run.stderr.trim()).toBe(
      'orca: ORCA_HOST_USAGE: --web 0.0.0.0:0 is not a loopback address; pass --web-bind-any to serve other machines',
    );
  });

  it('missing web assets fail the start at once with ORCA_HOST_WEB saying how to build them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-web-start-'));
    const run = await runOrca(['--data-dir', join(root, 'data'), 'start', '--web', '127.0.0.1:0'], {
      env: { ORCA_WEB_DIST: join(root, 'no-such-dist') },
    });
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: '' });
    expect(run.stderr.trim()).toBe(
      `orca: ORCA_HOST_WEB: ORCA_WEB_DIST=${join(root, 'no-such-dist')} holds no index.html; build apps/web or unset it`,
    );
  });
});
