import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_IDS, AGENTS, type AgentId, emitFor } from '@orca/hook-templates';
import { createHookListener, HOOK_PROTOCOL_VERSION, type HookEvent, writeEndpointFile } from '@orca/relay/listener';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TOKEN = 'c0ffee'.repeat(5).slice(0, 32);
const TAB = 'tab-7';
const PANE = `${TAB}:6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b`;
const TRANSPORTS = ['form', 'raw-json-v1'] as const;
type Transport = (typeof TRANSPORTS)[number];

const received: HookEvent[] = [];
const listener = createHookListener({ token: TOKEN, onEvent: (e) => received.push(e) });
const work = mkdtempSync(join(tmpdir(), 'orca-contract-scripts-'));
const endpointDirs: Record<Transport, string> = { form: join(work, 'form'), 'raw-json-v1': join(work, 'raw') };
const scripts = {} as Record<AgentId, string>;
const canary = join(work, 'canary');
// Why: the out-of-band event names the launcher env carries for these two agents.
const OUT_OF_BAND_EVENT: Partial<Record<AgentId, string>> = {
  antigravity: 'PreInvocation',
  copilot: 'UserPromptSubmitted',
};

beforeAll(async () => {
  const { port } = await listener.start();
  for (const transport of TRANSPORTS) {
    const ok = await writeEndpointFile(
      endpointDirs[transport],
      {
        port,
        token: TOKEN,
        env: 'local',
        version: HOOK_PROTOCOL_VERSION,
        ...(transport === 'raw-json-v1' ? { transport } : {}),
      },
      { format: 'env' },
    );
    expect(ok).toBe(true);
  }
  for (const id of AGENT_IDS) {
    scripts[id] = join(work, `${id}-hook.sh`);
    writeFileSync(scripts[id], emitFor(id, { os: 'posix', dialect: 'sh' }), { mode: 0o755 });
  }
});
afterAll(() => listener.stop());

function payloadFor(id: AgentId, transport: Transport): Record<string, unknown> {
  return {
    hook_event_name: AGENTS[id].events[0] ?? 'Stop',
    session_id: `contract-${id}-${transport}`,
    text: `it's "quoted" $(touch ${canary}) \`touch ${canary}\` %PATH% !x! \r\n é 漢字 😀`,
  };
}

function runScript(id: AgentId, transport: Transport, payload: Record<string, unknown>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('dash', [scripts[id]], {
      stdio: ['pipe', 'ignore', 'inherit'],
      env: {
        PATH: '/usr/local/bin:/usr/bin:/bin',
        HOME: work,
        LANG: 'C.UTF-8',
        ORCA_AGENT_HOOK_ENDPOINT: join(endpointDirs[transport], 'endpoint.env'),
        ORCA_PANE_KEY: PANE,
        ORCA_TAB_ID: TAB,
        ORCA_WORKTREE_ID: 'wt-1',
        ORCA_AGENT_LAUNCH_TOKEN: 'launch-1',
        ORCA_ANTIGRAVITY_EVENT: 'PreInvocation',
        ORCA_COPILOT_HOOK_EVENT: 'UserPromptSubmitted',
        GROK_HOME: join(work, '.grok'),
      },
    });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(JSON.stringify(payload));
  });
}

function withoutArrival(events: HookEvent[]) {
  return events.map(({ receivedAt: _receivedAt, ...rest }) => ({
    ...rest,
    payload: { ...rest.payload, session_id: 'normalized' },
  }));
}

describe('every generated POSIX script → a real createHookListener, both transports', () => {
  for (const id of AGENT_IDS) {
    it(`${id}: form and raw-json-v1 deliver deep-equal events carrying the exact payload`, async () => {
      const byTransport = {} as Record<Transport, HookEvent[]>;
      for (const transport of TRANSPORTS) {
        const payload = payloadFor(id, transport);
        const before = received.length;
        expect(await runScript(id, transport, payload)).toBe(0);
        byTransport[transport] = received.slice(before);
        const hookEventName = OUT_OF_BAND_EVENT[id] ?? String(payload.hook_event_name);
        expect(byTransport[transport].map(({ receivedAt: _receivedAt, ...event }) => event)).toEqual([
          {
            source: AGENTS[id].source,
            paneKey: PANE,
            tabId: TAB,
            worktreeId: 'wt-1',
            launchToken: 'launch-1',
            env: 'local',
            version: HOOK_PROTOCOL_VERSION,
            hookEventName,
            ...(id === 'grok' ? { grokHome: join(work, '.grok') } : {}),
            payload,
          },
        ]);
      }
      expect(existsSync(canary)).toBe(false);
      expect(withoutArrival(byTransport['raw-json-v1'])).toEqual(withoutArrival(byTransport.form));
    });
  }

  it('the listener dropped nothing', () => {
    const dropped = Object.entries(listener.stats().dropped).filter(([, n]) => n > 0);
    expect(dropped).toEqual([]);
  });
});
