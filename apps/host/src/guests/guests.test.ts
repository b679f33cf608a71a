import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guestBundle } from '@orca/relay/guest';
import { netnsSupport } from '@orca/relay/manager';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost, type Host, type VerdictChange } from '../host/host.ts';
import { silentLogger } from '../runtime/logger.ts';

async function skipReason(): Promise<string | null> {
  try {
    guestBundle();
  } catch (error) {
    return `relay guest bundle not built (${(error as Error).message})`;
  }
  const support = await netnsSupport();
  return support.ok ? null : `network namespaces unavailable: ${support.reason}`;
}
const reason = await skipReason();
if (reason) console.log(`skipping netns guest e2e: ${reason}`);

function nextVerdict(host: Host, handle: string, pred: (c: VerdictChange) => boolean): Promise<VerdictChange> {
  return new Promise((resolve) => {
    const off = host.onVerdict((c) => {
      if (c.handle === handle && pred(c)) {
        off();
        resolve(c);
      }
    });
  });
}

/** Runs the generated claude hook script (installed into $HOME by the host) with one event. */
function fireScript(event: string): string {
  return `printf '%s' '{"hook_event_name":"${event}","session_id":"s"}' | /bin/sh "$HOME/.orca/agent-hooks/claude-hook.sh" >/dev/null; exec sleep 60`;
}

const hosts: Host[] = [];
afterAll(async () => {
  for (const h of hosts) await h.stop();
});

describe.skipIf(reason !== null)(
  'netns guest (real unshare/nsenter, real relay bundle, generated hook script, curl)',
  () => {
    it('a hook fired inside the namespace reaches the host as netns:<name>; the same script on the host is local', async () => {
      const root = mkdtempSync(join(tmpdir(), 'orca-netns-'));
      const home = join(root, 'home');
      const host = await createHost({ dataDir: join(root, 'data'), logger: silentLogger(), home });
      hosts.push(host);
      // A spooled event left in the guest home (its host was unreachable) is read through the fs bridge at connect.
      const instance = createHash('sha256').update(host.paths.endpointEnv).digest('hex').slice(0, 12);
      const spoolDir = join(
        root,
        'data',
        'guests',
        'netns-g1',
        '.orca-guest',
        'agent-hooks',
        `instance-${instance}`,
        'spool',
      );
      mkdirSync(spoolDir, { recursive: true });
      const spooledKey = 'tab9:1b4e28ba-2fa1-41d2-883f-0016d3cca427';
      const spooled = {
        paneKey: spooledKey,
        source: 'claude',
        receivedAt: 1_700_000_000_000,
        payload: '{"hook_event_name":"Stop"}',
      };
      writeFileSync(join(spoolDir, 'pane-x.jsonl'), `${JSON.stringify(spooled)}\n`);
      // Why: rows are kept only for panes the host knows; this guest pane is listed from an earlier run.
      host.store.insertPane({
        handle: 'pane-x',
        paneKey: spooledKey,
        tabId: 'tab9',
        name: null,
        cwd: '/',
        argv: ['sh'],
        guest: 'g1',
        agent: null,
        createdAt: 1,
      });

      const guest = await host.guests.add('netns', 'g1', { agents: ['claude'] });
      expect(host.store.hookRows(spooledKey)).toMatchObject([
        { connectionId: 'netns:g1', receivedAt: 1_700_000_000_000 },
      ]);
      expect(readFileSync(join(spoolDir, 'pane-x.jsonl'), 'utf8')).toBe('');
      expect(guest).toMatchObject({ name: 'g1', kind: 'netns', connectionId: 'netns:g1', phase: 'running' });
      const guestHome = guest.home ?? '';
      expect(existsSync(join(guestHome, '.orca', 'agent-hooks', 'claude-hook.sh'))).toBe(true);

      const inGuest = await host.createPane({
        argv: ['/bin/sh', '-c', fireScript('UserPromptSubmit')],
        guest: 'g1',
        cwd: '/',
      });
      await nextVerdict(host, inGuest.handle, (c) => c.verdict.status === 'working');
      expect(host.store.hookRows(inGuest.paneKey)).toMatchObject([
        { connectionId: 'netns:g1', source: 'claude', hookEventName: 'UserPromptSubmit' },
      ]);

      // The same generated script from the host namespace (hooks installed into the host-side home).
      const { installHooks } = await import('../agent-hooks/install-hooks.ts');
      await installHooks({ home, agents: ['claude'] });
      const onHost = await host.createPane({
        argv: ['/bin/sh', '-c', fireScript('UserPromptSubmit')],
        env: { HOME: home },
        cwd: '/',
      });
      await nextVerdict(host, onHost.handle, (c) => c.verdict.status === 'working');
      expect(host.store.hookRows(onHost.paneKey).map((r) => r.connectionId)).toEqual(['local']);
      expect(host.guests.list()).toMatchObject([{ name: 'g1', phase: 'running' }]);
      expect(await host.guests.remove('g1')).toBe(true);
      // Removed for real: not listed, not stored, and no pane can start in it.
      expect(host.guests.list()).toEqual([]);
      expect(host.store.listGuests()).toEqual([]);
      await expect(host.createPane({ argv: ['true'], guest: 'g1', cwd: '/' })).rejects.toThrow(/not running/);
    }, 60_000);
  },
);
