import { describe, expect, it } from 'vitest';
import { AGENT_LIST, AGENTS, protocolLineFor } from './agents/registry.ts';
import { AGENT_IDS, HOOK_SOURCES } from './agents/sources.ts';
import { emitScript } from './emit/script.ts';
import { installAgent } from './install/install.ts';
import { launcherCommand } from './launchers/for-agent.ts';
import { installTargets, planFor } from './plan/plan-for.ts';
import { validatePlan } from './plan/validate.ts';

describe('registry completeness', () => {
  it('every agent has a source, events, a plan per target, a launcher, an installer and a list row', () => {
    expect(AGENT_LIST.map((d) => d.id)).toEqual([...AGENT_IDS]);
    for (const d of AGENT_LIST) {
      expect((HOOK_SOURCES as readonly string[]).includes(d.source)).toBe(true);
      expect(d.events.length).toBeGreaterThan(0);
      for (const target of installTargets(d)) {
        const plan = planFor(d.id, target);
        expect(validatePlan(plan)).toEqual([]);
        expect(emitScript(plan).length).toBeGreaterThan(100);
      }
      for (const platform of ['posix', 'windows'] as const) {
        const script =
          platform === 'posix' ? '/h/.orca/agent-hooks/x-hook.sh' : 'C:\\h\\.orca\\agent-hooks\\x-hook.cmd';
        expect(launcherCommand({ agent: d.id, platform, script, event: d.events[0] }).command.length).toBeGreaterThan(
          0,
        );
        const r = installAgent({
          agent: d.id,
          os: platform,
          home: platform === 'posix' ? '/h' : 'C:\\h',
          configs: {},
          agentVersion: d.id === 'claude' ? '9.9.9' : undefined,
        });
        expect(r.files.length).toBeGreaterThan(1);
      }
      for (const e of d.toolEvents) expect(d.events).toContain(e);
    }
  });

  it('sources and per-event protocol lines match the spec table', () => {
    expect(AGENTS.openclaude.source).toBe('claude');
    expect(AGENT_LIST.filter((d) => d.protocol === null).map((d) => d.id)).toEqual([
      'droid',
      'devin',
      'grok',
      'command-code',
      'opencode',
    ]);
    expect(protocolLineFor(AGENTS.antigravity, 'Stop')).toBe('{"decision":""}');
    expect(protocolLineFor(AGENTS.antigravity, 'PreToolUse')).toBe('{"decision":"ask"}');
    expect(protocolLineFor(AGENTS.antigravity, 'PostInvocation')).toBe('{}');
    expect(protocolLineFor(AGENTS.cursor, 'beforeShellExecution')).toBe('{"permission":"allow"}');
    expect(protocolLineFor(AGENTS.cursor, 'stop')).toBe('{}');
    expect(AGENTS.openclaude.events).not.toContain('SessionEnd');
    expect(AGENTS.claude.events).toContain('SessionEnd');
  });

  it('raw-json-v1 is planned exactly for sh agents without extras', () => {
    for (const d of AGENT_LIST) {
      const post = planFor(d.id, { os: 'posix', dialect: 'sh' }).steps.find((s) => s.op === 'post');
      expect(post?.op === 'post' && post.transport).toBe(d.extras.length === 0 ? 'raw-json-v1' : 'form');
      const batch = planFor(d.id, { os: 'windows', dialect: 'batch' }).steps.find((s) => s.op === 'post');
      expect(batch?.op === 'post' && batch.transport).toBe('form');
    }
  });
});
