import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guestBundle } from '@orca/relay/guest';
import { probeSshd, startThrowawaySshd, until } from '@orca/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host/host.ts';
import { silentLogger } from '../runtime/logger.ts';

function skipReason(): string | null {
  try {
    guestBundle();
  } catch (error) {
    return `relay guest bundle not built (${(error as Error).message})`;
  }
  return probeSshd();
}
const reason = skipReason();
if (reason) console.log(`skipping two-ssh-guests e2e: ${reason}`);

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(reason !== null)('two ssh guests, each with its own ssh arguments (two real sshd, two keys)', () => {
  it('each guest’s relay and panes use its own --ssh-arg list, and orca run --cwd applies on the remote side', async () => {
    // Why: each throwaway sshd has its own port and client key, so a guest works only with its own args.
    const sshdA = await startThrowawaySshd();
    cleanups.push(() => sshdA.stop());
    const sshdB = await startThrowawaySshd();
    cleanups.push(() => sshdB.stop());
    const root = mkdtempSync(join(tmpdir(), 'orca-ssh-args-'));
    const host: Host = await createHost({ dataDir: join(root, 'data'), logger: silentLogger(), home: root });
    cleanups.push(() => host.stop());

    const a = await host.guests.add('ssh', 'a', { target: sshdA.target, sshArgs: sshdA.sshArgs, agents: ['claude'] });
    const b = await host.guests.add('ssh', 'b', { target: sshdB.target, sshArgs: sshdB.sshArgs, agents: ['claude'] });
    expect([a.phase, b.phase]).toEqual(['running', 'running']);

    const keyOf = (args: readonly string[]) => args[args.indexOf('-i') + 1];
    const script = `pwd; printf '%s' '{"hook_event_name":"UserPromptSubmit","session_id":"s"}' | /bin/sh "$HOME/.orca/agent-hooks/claude-hook.sh" >/dev/null; exec sleep 60`;
    const paneB = await host.createPane({ argv: ['sh', '-c', script], guest: 'b', cwd: '/tmp' });
    const argvB = host.livePane(paneB.handle).record.argv;
    expect(argvB).toContain(keyOf(sshdB.sshArgs));
    expect(argvB).not.toContain(keyOf(sshdA.sshArgs));
    await until('the remote cwd printed', () =>
      host.showPane(paneB.handle).tail?.includes('/tmp') ? true : undefined,
    );
    await until('a hook from guest b', () => (host.store.hookRows(paneB.paneKey).length > 0 ? true : undefined));
    expect(host.store.hookRows(paneB.paneKey)).toMatchObject([
      { connectionId: b.connectionId, hookEventName: 'UserPromptSubmit' },
    ]);

    // Why: both sshd run as the same local account, so both guests share one home and its endpoint
    // file (the last relay's); guest a is checked through its relay's state and its panes' argv.
    const paneA = await host.createPane({ argv: ['sh', '-c', 'exec sleep 60'], guest: 'a', cwd: '/' });
    expect(host.livePane(paneA.handle).record.argv).toContain(keyOf(sshdA.sshArgs));
    expect(host.livePane(paneA.handle).record.argv).not.toContain(keyOf(sshdB.sshArgs));
    expect(host.guests.list().map((g) => [g.name, g.phase])).toEqual([
      ['a', 'running'],
      ['b', 'running'],
    ]);
  }, 120_000);
});
