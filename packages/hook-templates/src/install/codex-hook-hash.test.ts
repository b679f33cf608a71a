import { createHash } from 'node:crypto';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../agents/registry.ts';
import { codexHookHash } from './codex-hook-hash.ts';
import { installAgent, uninstallAgent } from './install.ts';

const sha = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

describe('codexHookHash (as Codex 0.171.0 computes it; proven against the real binary in tests/agents-lab)', () => {
  it('hashes the compact, key-sorted identity with the event label, the matcher and one handler', () => {
    expect(codexHookHash('PreToolUse', 'Bash', { command: 'echo hi', timeout: 30 })).toBe(
      sha(
        '{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"echo hi","timeout":30,"type":"command"}],"matcher":"Bash"}',
      ),
    );
  });

  it('drops the matcher of matcherless events, defaults the timeout, keeps set optional fields', () => {
    expect(codexHookHash('Stop', '*', { command: 'x' })).toBe(
      sha('{"event_name":"stop","hooks":[{"async":false,"command":"x","timeout":600,"type":"command"}]}'),
    );
    expect(
      codexHookHash('SessionStart', undefined, { command: 'x', statusMessage: 'hi', additionalContextLimit: 0 }),
    ).toBe(
      sha(
        '{"event_name":"session_start","hooks":[{"additionalContextLimit":0,"async":false,"command":"x","statusMessage":"hi","timeout":600,"type":"command"}]}',
      ),
    );
  });

  it('clamps SessionEnd to 1–3 s and leaves out the default context limit', () => {
    expect(codexHookHash('SessionEnd', undefined, { command: 'x', timeout: 30 })).toBe(
      sha('{"event_name":"session_end","hooks":[{"async":false,"command":"x","timeout":3,"type":"command"}]}'),
    );
    expect(codexHookHash('PreToolUse', undefined, { command: 'x', additionalContextLimit: 2500 })).toBe(
      codexHookHash('PreToolUse', undefined, { command: 'x' }),
    );
  });

  it('refuses an event Codex does not know', () => {
    expect(() => codexHookHash('Nope', undefined, { command: 'x' })).toThrow(RangeError);
  });
});

describe('the Codex installer grants trust to its own hooks only', () => {
  const home = '/h';
  const toml = `${home}/.codex/config.toml`;
  const hooksJson = `${home}/.codex/hooks.json`;

  it('writes one trusted_hash per managed handler into config.toml, keyed by position', () => {
    const r = installAgent({ agent: 'codex', os: 'posix', home, configs: {} });
    const file = r.files.find((f) => f.path === toml);
    expect(file?.action).toBe('create');
    const state = (parse(file?.content ?? '') as { hooks: { state: Record<string, { trusted_hash: string }> } }).hooks
      .state;
    expect(Object.keys(state).sort()).toEqual(r.codexTrustKeys?.map((k) => k.key).sort());
    expect(Object.keys(state)).toHaveLength(AGENTS.codex.events.length);
    for (const k of r.codexTrustKeys ?? []) expect(state[k.key]?.trusted_hash).toBe(k.hash);
  });

  it('keeps a user hook and its trust entry; a re-install is byte-identical', () => {
    const user = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } });
    const userKey = `${hooksJson}:stop:0:0`;
    const before = `[hooks.state."${userKey}"]\ntrusted_hash = "sha256:${'a'.repeat(64)}"\n`;
    const r = installAgent({ agent: 'codex', os: 'posix', home, configs: { [hooksJson]: user, [toml]: before } });
    const text = r.files.find((f) => f.path === toml)?.content ?? '';
    const state = (parse(text) as { hooks: { state: Record<string, unknown> } }).hooks.state;
    expect(state[userKey]).toEqual({ trusted_hash: `sha256:${'a'.repeat(64)}` });
    expect(r.codexTrustKeys?.some((k) => k.key === userKey)).toBe(false);
    const configs = Object.fromEntries(r.files.map((f) => [f.path, f.content]));
    const again = installAgent({ agent: 'codex', os: 'posix', home, configs });
    expect(again.files.map((f) => f.action)).toEqual(again.files.map(() => 'unchanged'));
  });

  it('uninstall drops the trust entries it granted', () => {
    const r = installAgent({ agent: 'codex', os: 'posix', home, configs: {} });
    const configs = Object.fromEntries(r.files.map((f) => [f.path, f.content]));
    const u = uninstallAgent({ agent: 'codex', os: 'posix', home, configs });
    const text = u.files.find((f) => f.path === toml)?.content ?? '';
    const state = (parse(text) as { hooks?: { state?: Record<string, unknown> } }).hooks?.state ?? {};
    expect(Object.keys(state)).toEqual([]);
  });
});
