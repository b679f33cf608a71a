import { describe, expect, it } from 'vitest';
import {
  AGENT_FACT_DEFAULTS,
  AGENT_FACTS,
  ANTIGRAVITY_WRAPPERS,
  HOOK_SOURCES,
  MANAGED_AGENTS,
  MANAGED_STEMS,
} from '../agents.ts';

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

  it('has the facts of every agent it lists, and nothing else', () => {
    expect(Object.keys(AGENT_FACTS).sort()).toEqual([...new Set([...HOOK_SOURCES, ...MANAGED_AGENTS])].sort());
    for (const facts of Object.values(AGENT_FACTS))
      expect(Object.keys(facts).sort()).toEqual(Object.keys(AGENT_FACT_DEFAULTS).sort());
  });

  it('no command, package or title word names two hook sources', () => {
    for (const field of ['commands', 'packages', 'titleNames'] as const) {
      const words = HOOK_SOURCES.flatMap((id) => AGENT_FACTS[id][field]);
      expect(new Set(words).size, field).toBe(words.length);
    }
  });

  it('every managed agent has a version command; words are lower case', () => {
    for (const id of MANAGED_AGENTS) expect(AGENT_FACTS[id].versionCommand, id).not.toBeNull();
    for (const facts of Object.values(AGENT_FACTS)) {
      for (const word of [...facts.commands, ...facts.titleNames]) expect(word).toBe(word.toLowerCase());
    }
    expect(AGENT_FACTS.antigravity.versionCommand).toEqual(['agy', '--version']);
    expect(AGENT_FACTS.claude.oneShotFlags).toEqual(['-p', '--print']);
    expect(AGENT_FACTS.amp.versionCommand).toBeNull();
  });
});
