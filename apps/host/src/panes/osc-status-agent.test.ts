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

/** A foreground process (not a shell) that prints one OSC 9999 frame and stays. */
function oscPane(payload: Record<string, unknown>): string[] {
  const frame = `\u001b]9999;${JSON.stringify(payload)}\u0007`;
  return [
    process.execPath,
    '-e',
    `process.stdout.write(${JSON.stringify(`${frame}osc-sent\n`)}); setTimeout(() => {}, 20000)`,
  ];
}

async function startHost(): Promise<Host> {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-osc-')), 'data');
  const host = await createHost({ dataDir, logger: silentLogger(), home: mkdtempSync(join(tmpdir(), 'orca-home-')) });
  hosts.push(host);
  return host;
}

describe('OSC 9999 rows before any hook event', () => {
  it("a frame naming its agent (agentType) is taken without a hook having named the pane's agent", async () => {
    const host = await startHost();
    const pane = await host.createPane({
      argv: oscPane({ state: 'working', agentType: 'claude', toolName: 'Bash' }),
      cwd: '/',
    });
    await until('frame printed', () => (host.showPane(pane.handle).tail?.includes('osc-sent') ? true : undefined));
    const view = await until('working from the OSC row', () => {
      const v = host.showPane(pane.handle);
      return v.status === 'working' ? v : undefined;
    });
    expect(view).toMatchObject({ status: 'working', isRunningAgent: true });
    expect(host.showPane(pane.handle).tail).not.toContain('9999');
  }, 20_000);

  it('a frame naming no known agent (and no hook yet) is dropped', async () => {
    const host = await startHost();
    const pane = await host.createPane({ argv: oscPane({ state: 'working', agentType: 'not-an-agent' }), cwd: '/' });
    await until('frame printed', () => (host.showPane(pane.handle).tail?.includes('osc-sent') ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect(host.showPane(pane.handle).status).toBe(null);
  }, 20_000);
});
