import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guestBundle } from '@orca/relay/guest';
import { probeSshd, startThrowawaySshd } from '@orca/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost, type Host, type VerdictChange } from '../host/host.ts';
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
if (reason) console.log(`skipping ssh guest e2e: ${reason}`);

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(reason !== null)('ssh guest (real sshd on 127.0.0.1, real ssh, relay, generated hook script)', () => {
  it('a hook fired in a guest pane over ssh -tt reaches the host as ssh:<target>', async () => {
    const sshd = await startThrowawaySshd();
    cleanups.push(() => sshd.stop());
    const { sshArgs, target } = sshd;

    const root = mkdtempSync(join(tmpdir(), 'orca-ssh-guest-'));
    const host: Host = await createHost({ dataDir: join(root, 'data'), logger: silentLogger(), home: root });
    cleanups.push(() => host.stop());
    const guest = await host.guests.add('ssh', 's1', { target, sshArgs, agents: ['claude'] });
    expect(guest).toMatchObject({ name: 's1', kind: 'ssh', connectionId: `ssh:${target}`, phase: 'running' });

    const script = `printf '%s' '{"hook_event_name":"UserPromptSubmit","session_id":"s"}' | /bin/sh "$HOME/.orca/agent-hooks/claude-hook.sh" >/dev/null; exec sleep 60`;
    const pane = await host.createPane({ argv: ['sh', '-c', script], guest: 's1', cwd: '/' });
    await new Promise<VerdictChange>((resolve) => {
      const off = host.onVerdict((c) => {
        if (c.handle === pane.handle && c.verdict.status === 'working') {
          off();
          resolve(c);
        }
      });
    });
    expect(host.store.hookRows(pane.paneKey)).toMatchObject([
      { connectionId: `ssh:${target}`, hookEventName: 'UserPromptSubmit' },
    ]);
  }, 90_000);
});
