import { z } from 'zod';
import { STATUS_AGENT_IDS } from '../agent-ids.ts';
import type { StatusRow } from '../types.ts';

const subagent = z.object({
  id: z.string(),
  state: z.enum(['working', 'blocked', 'waiting', 'idle']),
  startedAt: z.number().finite(),
  agentType: z.string().optional(),
  model: z.string().optional(),
  description: z.string().optional(),
});

/** zod schema of a stored {@link StatusRow}; a row failing it is dropped, never thrown on. */
export const statusRowSchema = z.object({
  state: z.enum(['working', 'blocked', 'waiting', 'done']),
  receivedAt: z.number().finite(),
  stateStartedAt: z.number().finite(),
  source: z.enum(STATUS_AGENT_IDS),
  via: z.enum(['hook', 'osc']),
  interrupted: z.literal(true).optional(),
  toolUseId: z.string().optional(),
  dialog: z.literal(true).optional(),
  toolName: z.string().optional(),
  toolInput: z.string().optional(),
  prompt: z.string().optional(),
  lastAssistantMessage: z.string().optional(),
  interactivePrompt: z.string().optional(),
  agentType: z.string().optional(),
  model: z.string().optional(),
  subagents: z.array(subagent).optional(),
});

/** A validated row, or null for anything malformed. */
export function parseStatusRow(value: unknown): StatusRow | null {
  const parsed = statusRowSchema.safeParse(value);
  if (!parsed.success) return null;
  const row: StatusRow = { ...parsed.data } as StatusRow;
  return row;
}

/** Keep the valid rows of an untrusted list. */
export function validRows(rows: readonly unknown[] | undefined): StatusRow[] {
  if (!Array.isArray(rows)) return [];
  const out: StatusRow[] = [];
  for (const r of rows) {
    const row = parseStatusRow(r);
    if (row) out.push(row);
  }
  return out;
}
