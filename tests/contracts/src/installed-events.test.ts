import { createHookNormalizer, IGNORED_HOOK_EVENTS, isAgentId } from '@orca/agent-status';
import { AGENT_IDS, AGENTS } from '@orca/hook-templates';
import { describe, expect, it } from 'vitest';

// Why: some events map to a row only for some payloads (Claude `SessionStart` `startup`,
// `PostCompact` `manual`, Droid's permission `Notification`, Copilot's fatal `ErrorOccurred`);
// an event passes when any of these representative payloads yields a row.
const PAYLOAD_VARIANTS: readonly Record<string, unknown>[] = [
  {},
  { source: 'startup' },
  { trigger: 'manual' },
  { message: 'Droid needs your permission to run Execute' },
  { notification_type: 'permission_prompt' },
  { fatal: true },
];

describe('every event an installer registers is understood by agent-status', () => {
  for (const id of AGENT_IDS) {
    const agent = AGENTS[id];
    it(`${id}: each registered event maps to a status row or a listed ignore`, () => {
      expect(isAgentId(agent.source)).toBe(true);
      const ignored = new Set(isAgentId(agent.source) ? IGNORED_HOOK_EVENTS[agent.source] : []);
      const mapsToRow = (event: string) =>
        PAYLOAD_VARIANTS.some(
          (extra) =>
            createHookNormalizer().normalize({
              source: agent.source,
              payload: { hook_event_name: event, session_id: 'contract', ...extra },
              hookEventName: event,
              receivedAt: 1_000,
            }) !== null,
        );
      const unmapped = agent.events.filter((event) => !mapsToRow(event) && !ignored.has(event));
      // An ignore must really be ignored, and an agent whose every event is ignored reports nothing.
      const ignoredButMapped = agent.events.filter((event) => ignored.has(event) && mapsToRow(event));
      expect(ignoredButMapped).toEqual([]);
      expect(agent.events.filter(mapsToRow).length).toBeGreaterThan(0);
      expect(unmapped).toEqual([]);
    });
  }

  it('lists no ignore for an agent that is not a known source', () => {
    expect(Object.keys(IGNORED_HOOK_EVENTS).filter((k) => !isAgentId(k))).toEqual([]);
  });
});
