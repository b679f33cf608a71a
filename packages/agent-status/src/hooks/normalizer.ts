import { type AgentId, isAgentId, STATUS_AGENT_IDS } from '../agent-ids.ts';
import { OSC_FIELD_CAPS } from '../limits.ts';
import type { OscStatusPayload } from '../osc/osc-payload.ts';
import { decodeOscPayloadValue } from '../osc/osc-payload.ts';
import type { RowState, StatusRow } from '../types.ts';
import { DIALECTS } from './agent-hooks.ts';
import type { DialectMemory, HookMeaning } from './dialects.ts';
import { asObject, cap, stringField, toolInputOf, toolNameOf } from './payload-fields.ts';
import { parseStatusRow } from './row-schema.ts';

/**
 * Every hook source this engine normalizes, in the relay's `HOOK_SOURCES` order. Contract tests
 * compare it with hook-templates' and relay's lists.
 */
export const HOOK_SOURCES: readonly AgentId[] = STATUS_AGENT_IDS;

/** One hook event as the host received it. */
export interface HookInput {
  source: string;
  payload: unknown;
  /** Out-of-band event name (Copilot, Antigravity launcher env); wins over the payload's. */
  hookEventName?: string;
  receivedAt: number;
}

/** Per-pane normalizer of hook events and OSC payloads into {@link StatusRow}s. */
export interface HookNormalizer {
  normalize(input: HookInput): StatusRow | null;
  fromOsc(payload: unknown, source: string, receivedAt: number): StatusRow | null;
  /** The last row produced (or the seed). */
  readonly last: StatusRow | null;
}

/**
 * Create the normalizer of one pane. `last` (the pane's last stored row) seeds the history so
 * `stateStartedAt` survives a host restart; a malformed seed is ignored.
 *
 * @example
 * const n = createHookNormalizer();
 * n.normalize({ source: 'claude', payload: { hook_event_name: 'UserPromptSubmit' }, receivedAt: 10 });
 * // { state: 'working', receivedAt: 10, stateStartedAt: 10, source: 'claude', via: 'hook' }
 */
export function createHookNormalizer(options: { last?: unknown } = {}): HookNormalizer {
  let last: StatusRow | null = options.last === undefined ? null : parseStatusRow(options.last);
  const memory: DialectMemory = { openChildren: new Set(), endedThreads: new Set(), lastState: last?.state };

  function startedAt(state: RowState, receivedAt: number): number {
    return last && last.state === state ? last.stateStartedAt : receivedAt;
  }

  function commit(row: StatusRow): StatusRow {
    last = row;
    memory.lastState = row.state;
    return row;
  }

  return {
    normalize(input) {
      if (!isValidTime(input?.receivedAt) || !isAgentId(input.source)) return null;
      const payload = asObject(input.payload);
      if (!payload) return null;
      const event =
        (typeof input.hookEventName === 'string' && input.hookEventName !== '' ? input.hookEventName : undefined) ??
        stringField(payload, 'hook_event_name', 'hookEventName', 'hook_type', 'hookType');
      if (event === undefined) return null;
      let meaning: HookMeaning | null;
      try {
        meaning = DIALECTS[input.source](event, payload, memory);
      } catch {
        // Why: agent-originated data never throws out of the engine (§10).
        meaning = null;
      }
      if (!meaning) return null;
      const row: StatusRow = {
        state: meaning.state,
        receivedAt: input.receivedAt,
        stateStartedAt: startedAt(meaning.state, input.receivedAt),
        source: input.source,
        via: 'hook',
        ...(meaning.interrupted ? { interrupted: true as const } : {}),
        ...(meaning.toolUseId !== undefined ? { toolUseId: meaning.toolUseId } : {}),
        ...(meaning.dialog ? { dialog: true as const } : {}),
        ...hookDetails(payload),
      };
      return commit(row);
    },
    fromOsc(value, source, receivedAt) {
      if (!isValidTime(receivedAt) || !isAgentId(source)) return null;
      const payload: OscStatusPayload | null = decodeOscPayloadValue(value);
      if (!payload) return null;
      const { state, interrupted, ...details } = payload;
      const row: StatusRow = {
        state,
        receivedAt,
        stateStartedAt: startedAt(state, receivedAt),
        source,
        via: 'osc',
        ...(interrupted === true && state === 'done' ? { interrupted: true as const } : {}),
        ...details,
      };
      return commit(row);
    },
    get last() {
      return last;
    },
  };
}

function isValidTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function hookDetails(payload: Record<string, unknown>): Partial<StatusRow> {
  const out: Partial<StatusRow> = {};
  const toolName = cap(toolNameOf(payload), OSC_FIELD_CAPS.toolName);
  if (toolName !== undefined) out.toolName = toolName;
  const toolInput = toolInputOf(payload);
  if (toolInput !== undefined) out.toolInput = toolInput;
  const prompt = cap(stringField(payload, 'prompt'), OSC_FIELD_CAPS.prompt);
  if (prompt !== undefined) out.prompt = prompt;
  const message = cap(
    stringField(payload, 'last_assistant_message', 'lastAssistantMessage'),
    OSC_FIELD_CAPS.lastAssistantMessage,
  );
  if (message !== undefined) out.lastAssistantMessage = message;
  return out;
}
