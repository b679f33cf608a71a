import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guestBundle } from '@orca/relay/guest';
import { netnsSupport } from '@orca/relay/manager';
import { until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host/host.ts';
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
if (reason) console.log(`skipping netns guest lifecycle e2e: ${reason}`);

const hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop().catch(() => undefined);
});

async function startHost(dataDir: string, home: string): Promise<Host> {
  const host = await createHost({ dataDir, logger: silentLogger(), home });
  hosts.push(host);
  return host;
}

/** Runs the generated claude hook script (installed into $HOME by the host) with one event. */
const fire = (event: string) =>
  `printf '%s' '{"hook_event_name":"${event}","session_id":"s"}' | /bin/sh "$HOME/.orca/agent-hooks/claude-hook.sh" >/dev/null; exec sleep 60`;

async function hookFrom(host: Host, guest: string): Promise<string> {
  const pane = await host.createPane({ argv: ['/bin/sh', '-c', fire('UserPromptSubmit')], guest, cwd: '/' });
  const rows = await until('a hook from the guest pane', () => {
    const r = host.store.hookRows(pane.paneKey);
    return r.length > 0 ? r : undefined;
  });
  return rows[0]?.connectionId ?? '';
}

describe.skipIf(reason !== null)('netns guests over their life (real namespaces, relay, hook scripts)', () => {
  it('add → run → rm → add → run: the guest is really gone after rm, and the new one delivers', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-guest-life-'));
    const host = await startHost(join(root, 'data'), root);
    await host.guests.add('netns', 'g', { agents: ['claude'] });
    expect(await hookFrom(host, 'g')).toBe('netns:g');
    expect(await host.guests.remove('g')).toBe(true);
    expect(host.guests.list()).toEqual([]);
    expect(host.store.listGuests()).toEqual([]);
    await expect(host.createPane({ argv: ['true'], guest: 'g', cwd: '/' })).rejects.toThrow(/not running/);
    const again = await host.guests.add('netns', 'g', { agents: ['claude'] });
    expect(again).toMatchObject({ name: 'g', phase: 'running', connectionId: 'netns:g' });
    expect(await hookFrom(host, 'g')).toBe('netns:g');
    expect(await host.guests.remove('g')).toBe(true);
    expect(await host.guests.remove('g')).toBe(false);
  }, 90_000);

  it('guests come back after a restart: listed, relay running, hooks delivered', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-guest-restore-'));
    const dataDir = join(root, 'data');
    const first = await startHost(dataDir, root);
    await first.guests.add('netns', 'keep', { agents: ['claude'] });
    await first.stop();
    hosts.splice(hosts.indexOf(first), 1);
    const second = await startHost(dataDir, root);
    expect(second.guests.list().map((g) => g.name)).toEqual(['keep']);
    await until('the restored guest running', () =>
      second.guests.list().find((g) => g.name === 'keep' && g.phase === 'running'),
    );
    expect(await hookFrom(second, 'keep')).toBe('netns:keep');
  }, 90_000);

  it('guest add installs hooks for the agents found in the guest, or for --agents', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-guest-agents-'));
    const dataDir = join(root, 'data');
    const host = await startHost(dataDir, root);
    // The guest home of a netns guest is <data-dir>/guests/netns-<name>; give it codex and gemini.
    const found = join(dataDir, 'guests', 'netns-found');
    mkdirSync(join(found, '.codex'), { recursive: true });
    mkdirSync(join(found, '.gemini'), { recursive: true });
    await host.guests.add('netns', 'found');
    await until('codex and gemini hooks', () =>
      existsSync(join(found, '.codex', 'hooks.json')) && existsSync(join(found, '.gemini', 'settings.json'))
        ? true
        : undefined,
    );
    expect(existsSync(join(found, '.claude', 'settings.json'))).toBe(false);
    const chosen = await host.guests.add('netns', 'chosen', { agents: ['codex'] });
    const home = chosen.home ?? '';
    await until('codex hooks', () => (existsSync(join(home, '.codex', 'hooks.json')) ? true : undefined));
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
  }, 90_000);
});
