import { z } from 'zod';

/** Every canonical event a harness can fire, in the spec's order. */
export const CANONICAL_EVENTS = [
  'toolGate',
  'beforeSubmitPrompt',
  'afterFileEdit',
  'subagentStart',
  'beforeDiffApply',
  'stop',
  'afterToolUse',
  'subagentStop',
  'sessionStart',
  'permissionDecision',
  'afterDiffApply',
  'postTurnReview',
] as const;

/** A canonical event name. */
export type CanonicalEvent = (typeof CANONICAL_EVENTS)[number];

/** How an event is dispatched (`emit` awaits blocking ones) and what its outcome may hold. */
export const EVENT_TRAITS = {
  toolGate: { dispatch: 'blocking', kind: 'decision' },
  beforeSubmitPrompt: { dispatch: 'blocking', kind: 'decision' },
  afterFileEdit: { dispatch: 'blocking', kind: 'observation' },
  subagentStart: { dispatch: 'blocking', kind: 'decision' },
  beforeDiffApply: { dispatch: 'blocking', kind: 'decision' },
  stop: { dispatch: 'detached', kind: 'async' },
  afterToolUse: { dispatch: 'detached', kind: 'async' },
  subagentStop: { dispatch: 'detached', kind: 'async' },
  sessionStart: { dispatch: 'detached', kind: 'async' },
  permissionDecision: { dispatch: 'detached', kind: 'async' },
  afterDiffApply: { dispatch: 'detached', kind: 'async' },
  postTurnReview: { dispatch: 'detached', kind: 'async' },
} as const satisfies Record<
  CanonicalEvent,
  { dispatch: 'blocking' | 'detached'; kind: 'decision' | 'observation' | 'async' }
>;

/** Canonical events `emit` awaits and merges. */
export type BlockingEvent = {
  [E in CanonicalEvent]: (typeof EVENT_TRAITS)[E]['dispatch'] extends 'blocking' ? E : never;
}[CanonicalEvent];

/** True when `name` is a canonical event. */
export function isCanonicalEvent(name: string): name is CanonicalEvent {
  return (CANONICAL_EVENTS as readonly string[]).includes(name);
}

const runStatus = z.enum(['completed', 'aborted', 'error']);
const loopCount = z.number().int().nonnegative().optional();
const toolInput = z.record(z.string(), z.unknown());

/** zod schema of each event's payload (the CLI validates `--payload` with these). */
export const EVENT_PAYLOAD_SCHEMAS = {
  toolGate: z.object({
    toolName: z.string(),
    input: toolInput,
    toolUseId: z.string().optional(),
    cwd: z.string().optional(),
    fileContent: z.string().optional(),
  }),
  beforeSubmitPrompt: z.object({ prompt: z.string(), attachments: z.array(z.unknown()).optional() }),
  afterFileEdit: z.object({ filePath: z.string(), edits: z.array(z.unknown()).optional() }),
  subagentStart: z.object({ subagentType: z.string(), task: z.string().optional(), model: z.string().optional() }),
  beforeDiffApply: z.object({ filePath: z.string() }),
  stop: z.object({ status: runStatus, loopCount }),
  afterToolUse: z.object({
    toolName: z.string(),
    toolUseId: z.string(),
    isError: z.boolean(),
    input: toolInput.optional(),
    output: z.string().optional(),
    errorMessage: z.string().optional(),
    durationMs: z.number().nonnegative().optional(),
  }),
  subagentStop: z.object({ subagentType: z.string(), status: runStatus, loopCount }),
  sessionStart: z.object({ source: z.enum(['startup', 'resume', 'clear', 'compact']).optional() }),
  permissionDecision: z.object({ toolName: z.string(), decision: z.string() }),
  afterDiffApply: z.object({ filePath: z.string(), applied: z.boolean() }),
  postTurnReview: z.object({ issuesFound: z.number().int().nonnegative(), summary: z.string() }),
} as const satisfies Record<CanonicalEvent, z.ZodType>;

/** One payload type per canonical event. */
export type EventPayloads = { [E in CanonicalEvent]: z.output<(typeof EVENT_PAYLOAD_SCHEMAS)[E]> };

/** Model the harness runs, marshalled into vendor payloads. */
export interface HookModel {
  name: string;
  id?: string;
  params?: Record<string, unknown>;
}

/**
 * Where an event happens. Missing ids marshal as `""`; the detached thread key is
 * `threadId ?? conversationId ?? "default"`. apps/host passes the pane key as `conversationId`.
 */
export interface HookContext {
  conversationId?: string;
  generationId?: string;
  threadId?: string;
  turnTreeId?: string;
  model?: HookModel;
  workspaceRoots?: string[];
  /** Aborts running hooks (process group killed, run recorded `aborted`, abstains). */
  signal?: AbortSignal;
}

/** The detached-dispatch thread key of a context. */
export function threadKeyOf(ctx: HookContext): string {
  return ctx.threadId ?? ctx.conversationId ?? 'default';
}
