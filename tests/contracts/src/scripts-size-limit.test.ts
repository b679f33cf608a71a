import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emitFor } from '@orca/hook-templates';
import {
  createHookListener,
  HOOK_PROTOCOL_VERSION,
  type HookEvent,
  limits,
  writeEndpointFile,
} from '@orca/relay/listener';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * hook-templates spec §8.3: a real `createHookListener` receives a ≤ 300,000 B event from a real
 * generated script intact, and refuses a too-large non-tool event with 413 (`too-large`), which the
 * script spools instead of losing.
 */
const TOKEN = 'feed'.repeat(8);
const TAB = 'tab-3';
const PANE = `${TAB}:0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6`;
/** The largest payload the spec promises to deliver (form encoding may triple it). */
const DELIVERED_PAYLOAD_BYTES = 300_000;

const received: HookEvent[] = [];
const listener = createHookListener({ token: TOKEN, onEvent: (e) => received.push(e) });
const work = mkdtempSync(join(tmpdir(), 'orca-contract-size-'));
const script = join(work, 'codex-hook.sh');
const endpointDirs = { form: join(work, 'form'), 'raw-json-v1': join(work, 'raw') } as const;
type Transport = keyof typeof endpointDirs;

beforeAll(async () => {
  const { port } = await listener.start();
  for (const transport of ['form', 'raw-json-v1'] as const) {
    const values = { port, token: TOKEN, env: 'local', version: HOOK_PROTOCOL_VERSION };
    const ok = await writeEndpointFile(
      endpointDirs[transport],
      transport === 'raw-json-v1' ? { ...values, transport } : values,
      { format: 'env' },
    );
    expect(ok).toBe(true);
  }
  writeFileSync(script, emitFor('codex', { os: 'posix', dialect: 'sh' }), { mode: 0o755 });
});
afterAll(() => listener.stop());

/** A JSON payload of exactly `bytes` UTF-8 bytes whose padding form-encodes to 3 bytes per byte. */
function payloadOf(bytes: number, event: string): string {
  const head = JSON.stringify({ hook_event_name: event, session_id: 's-1', pad: '' });
  const unit = 'é'; // 2 UTF-8 bytes, 6 form-encoded bytes
  const room = bytes - Buffer.byteLength(head);
  const text = `${head.slice(0, -2)}${unit.repeat(Math.floor(room / 2))}${'+'.repeat(room % 2)}"}`;
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

function runScript(transport: Transport, payload: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('dash', [script], {
      stdio: ['pipe', 'ignore', 'inherit'],
      env: {
        PATH: '/usr/local/bin:/usr/bin:/bin',
        HOME: work,
        LANG: 'C.UTF-8',
        ORCA_AGENT_HOOK_ENDPOINT: join(endpointDirs[transport], 'endpoint.env'),
        ORCA_PANE_KEY: PANE,
        ORCA_TAB_ID: TAB,
      },
    });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(payload);
  });
}

function spoolLines(transport: Transport): Record<string, unknown>[] {
  const dir = join(endpointDirs[transport], 'spool');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  );
}

describe('hook-templates §8.3: payload size against a real createHookListener', () => {
  it.each(['form', 'raw-json-v1'] as const)(
    `${DELIVERED_PAYLOAD_BYTES} B payload (tripled by form encoding) arrives intact over %s, nothing spooled`,
    async (transport) => {
      const payload = payloadOf(DELIVERED_PAYLOAD_BYTES, 'Stop');
      const before = received.length;
      expect(await runScript(transport, payload)).toBe(0);
      const events = received.slice(before);
      expect(events.map((e) => ({ paneKey: e.paneKey, source: e.source, hookEventName: e.hookEventName }))).toEqual([
        { paneKey: PANE, source: 'codex', hookEventName: 'Stop' },
      ]);
      expect(events[0]?.payload).toEqual(JSON.parse(payload));
      expect(spoolLines(transport)).toEqual([]);
      console.log(
        `${transport}: ${DELIVERED_PAYLOAD_BYTES} B payload delivered (listener cap ${limits.MAX_HOOK_BODY_BYTES} B)`,
      );
    },
  );

  it('a too-large non-tool event gets 413 (too-large) and is spooled whole; a too-large tool event is not spooled', async () => {
    const tooLarge = payloadOf(limits.MAX_HOOK_BODY_BYTES + 1, 'Stop');
    const tool = payloadOf(limits.MAX_HOOK_BODY_BYTES + 1, 'PreToolUse');
    const before = received.length;
    const tooLargeBefore = listener.stats().dropped['too-large'];
    expect(await runScript('form', tooLarge)).toBe(0);
    expect(await runScript('form', tool)).toBe(0);
    expect(received.slice(before)).toEqual([]);
    expect(listener.stats().dropped['too-large'] - tooLargeBefore).toBe(2);
    const spooled = spoolLines('form');
    expect(spooled.map(({ receivedAt: _r, payload: _p, ...line }) => line)).toEqual([
      {
        paneKey: PANE,
        tabId: TAB,
        worktreeId: '',
        env: 'local',
        version: HOOK_PROTOCOL_VERSION,
        launchToken: '',
        source: 'codex',
      },
    ]);
    expect(spooled[0]?.payload).toBe(tooLarge);
    console.log(
      `too-large: ${Buffer.byteLength(tooLarge)} B Stop spooled (${spooled.length} line), PreToolUse not spooled`,
    );
  });
});
