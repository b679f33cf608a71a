import { describe, expect, it } from 'vitest';
import { ANTIGRAVITY_WRAPPERS, HOOK_SOURCES, MANAGED_AGENTS, MANAGED_STEMS } from '../agents.ts';

describe('the agent catalogue', () => {
  it('lists each agent once, in lowercase id form', () => {
    for (const list of [HOOK_SOURCES, MANAGED_AGENTS]) {
      expect(new Set(list).size).toBe(list.length);
      for (const id of list) expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
    }
  });

  it('every managed agent but openclaude posts as a hook source of its own (openclaude posts as claude)', () => {
    const sources: readonly string[] = HOOK_SOURCES;
    expect(MANAGED_AGENTS.filter((a) => !sources.includes(a))).toEqual(['openclaude']);
  });

  it('managed stems: each agent’s script and impl, and the per-event wrappers', () => {
    expect(MANAGED_STEMS).toContain('grok-hook');
    expect(MANAGED_STEMS).toContain('grok-hook-impl');
    expect(MANAGED_STEMS).toContain(ANTIGRAVITY_WRAPPERS.PreToolUse);
    expect(MANAGED_STEMS).toHaveLength(MANAGED_AGENTS.length * 2 + Object.keys(ANTIGRAVITY_WRAPPERS).length);
  });
});
