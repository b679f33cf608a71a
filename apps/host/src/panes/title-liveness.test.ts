import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host/host.ts';
import { silentLogger } from '../runtime/logger.ts';

const hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop().catch(() => undefined);
});

describe.skipIf(process.platform !== 'linux')('a title is live only while the process that set it is in front', () => {
  it('a ✋ title left behind by a process that exited no longer holds the pane in permission', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-title-')), 'data');
    const host = await createHost({ dataDir, logger: silentLogger(), home: mkdtempSync(join(tmpdir(), 'orca-home-')) });
    hosts.push(host);
    // Why: an interactive sh runs each job in its own process group, as a real agent CLI would be.
    const pane = await host.createPane({ argv: ['/bin/sh', '-i'], cwd: '/', env: { PS1: '$ ' } });
    await until('prompt', () => (host.showPane(pane.handle).tail?.includes('$ ') ? true : undefined));
    host.send(pane.handle, `/bin/sh -c 'printf "\\033]0;✋ Waiting for approval\\007"; sleep 2; echo setter-gone'\n`);
    const held = await until('permission while the setter runs', () =>
      host.showPane(pane.handle).status === 'permission' ? host.showPane(pane.handle) : undefined,
    );
    expect(held.status).toBe('permission');
    await until('setter exited', () => (host.showPane(pane.handle).tail?.includes('setter-gone') ? true : undefined));
    const after = await until('verdict after the setter exited', () => {
      const view = host.showPane(pane.handle);
      return view.status !== 'permission' ? view : undefined;
    });
    expect(after.status).not.toBe('permission');
    expect(host.showPane(pane.handle).title).toContain('✋');
  }, 30_000);
});
