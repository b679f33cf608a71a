import { HOOK_SOURCES as STATUS_SOURCES } from '@orca/agent-status';
import { AGENT_IDS, AGENTS, HOOK_SOURCES as TEMPLATE_SOURCES } from '@orca/hook-templates';
import { HOOK_SOURCES as RELAY_SOURCES } from '@orca/relay/listener';
import { describe, expect, it } from 'vitest';

describe('hook source lists agree across packages', () => {
  it('hook-templates, relay and agent-status list the same sources in the same order', () => {
    expect([...TEMPLATE_SOURCES]).toEqual([...RELAY_SOURCES]);
    expect([...STATUS_SOURCES]).toEqual([...RELAY_SOURCES]);
  });

  it('every agent hook-templates compiles posts to a source the relay accepts', () => {
    const relay = new Set<string>(RELAY_SOURCES);
    const unknown = AGENT_IDS.filter((id) => !relay.has(AGENTS[id].source));
    expect(unknown).toEqual([]);
  });
});
