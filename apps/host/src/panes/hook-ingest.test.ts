import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host/host.ts';

const hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop().catch(() => undefined);
});

/** A real host whose pino log lines are collected in memory. */
async function hostWithLog(): Promise<{ host: Host; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const root = mkdtempSync(join(tmpdir(), 'orca-ingest-'));
  const host = await createHost({
    dataDir: join(root, 'data'),
    logger: pino({ level: 'debug' }, sink),
    home: root,
  });
  hosts.push(host);
  return { host, lines };
}

function event(paneKey: string, extra: Record<string, unknown> = {}) {
  return { source: 'claude', paneKey, payload: { hook_event_name: 'Stop', session_id: 's' }, receivedAt: 1, ...extra };
}

const sleeper = ['/bin/sh', '-c', 'sleep 30'];

describe('host ingest', () => {
  it('stores hook rows only for panes the host knows; unknown pane keys are counted and logged, rate-limited', async () => {
    const { host, lines } = await hostWithLog();
    const pane = await host.createPane({ argv: sleeper, cwd: '/' });
    host.ingest(event(pane.paneKey), 'local');
    for (let i = 0; i < 50; i += 1) {
      host.ingest(event(`t${String(i).padStart(7, '0')}:1b4e28ba-2fa1-41d2-883f-0016d3cca427`), 'local');
    }
    expect(host.store.hookRows(pane.paneKey)).toHaveLength(1);
    expect(host.store.countHookRows()).toBe(1);
    const dropLines = lines.filter((l) => l.msg === 'hook events for unknown panes dropped');
    expect(dropLines).toHaveLength(1);
    expect(dropLines[0]).toMatchObject({ dropped: 1, totalDropped: 1 });
  });

  it('an event the local listener accepted is stored once, as the same row a relayed one makes', async () => {
    const { host } = await hostWithLog();
    const pane = await host.createPane({ argv: sleeper, cwd: '/' });
    const payload = { hook_event_name: 'Stop', session_id: 's-local' };
    const body = new URLSearchParams({ paneKey: pane.paneKey, payload: JSON.stringify(payload) }).toString();
    const res = await request(`http://127.0.0.1:${host.endpoint.port}/hook/claude`, {
      method: 'POST',
      headers: { 'x-orca-agent-hook-token': host.endpoint.token, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    await res.body.dump();
    expect(res.statusCode).toBe(204);
    // A relayed event (a guest's) goes through the trust boundary; the listener's went through the listener's.
    host.ingest({ source: 'claude', paneKey: pane.paneKey, payload, receivedAt: 1 }, 'ssh:box');
    const [local, relayed] = host.store.hookRows(pane.paneKey);
    expect(local).toMatchObject({ connectionId: 'local', source: 'claude', hookEventName: 'Stop' });
    expect(relayed).toMatchObject({ connectionId: 'ssh:box', source: 'claude', hookEventName: 'Stop' });
    const same = (r: typeof local) => ({
      envelope: { ...r?.envelope, connectionId: undefined, receivedAt: undefined },
      row: { ...r?.row, receivedAt: undefined, stateStartedAt: undefined },
    });
    expect(same(local)).toEqual(same(relayed));
    expect(local?.envelope.payload).toEqual(payload);
  });

  it('warns once per pane when a hook arrives with a mismatched ORCA_AGENT_HOOK_VERSION or ORCA_AGENT_HOOK_ENV', async () => {
    const { host, lines } = await hostWithLog();
    const a = await host.createPane({ argv: sleeper, cwd: '/' });
    const b = await host.createPane({ argv: sleeper, cwd: '/' });
    const c = await host.createPane({ argv: sleeper, cwd: '/' });
    for (let i = 0; i < 5; i += 1) {
      host.ingest(event(a.paneKey, { version: '1', env: 'local' }), 'local');
      host.ingest(event(b.paneKey, { version: host.endpoint.version, env: 'wsl' }), 'local');
      // matching version and env, and the guest-written env `remote`: never a warning
      host.ingest(event(c.paneKey, { version: host.endpoint.version, env: 'local' }), 'local');
      host.ingest(event(c.paneKey, { version: host.endpoint.version, env: 'remote' }), 'local');
    }
    const warns = lines
      .filter((l) => l.msg === 'hook event from a mismatched hook endpoint')
      .map((l) => ({ paneKey: l.paneKey, version: l.version, env: l.env, level: l.level }));
    expect(warns).toEqual([
      { paneKey: a.paneKey, version: '1', env: 'local', level: 40 },
      { paneKey: b.paneKey, version: host.endpoint.version, env: 'wsl', level: 40 },
    ]);
    expect(host.store.hookRows(a.paneKey)).toHaveLength(5);
  });
});
