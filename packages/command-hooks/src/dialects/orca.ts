import { z } from 'zod';
import { type CanonicalEvent, EVENT_TRAITS, type HookContext } from '../events.ts';
import type { CommandHook } from '../hook.ts';
import {
  decided,
  type ExitedRun,
  exitFailure,
  failure,
  type Interpretation,
  noOutcome,
  parseStdout,
  stderrMessage,
} from '../internal/interpretation.ts';
import { formatZodIssues } from '../internal/zod-issues.ts';
import { MAX_TOOL_OUTPUT_CHARS } from '../limits.ts';
import type { AsyncOutcome, BlockingOutcome } from '../outcome.ts';
import type { DialectAdapter, DialectEventHandler, DialectEventTable } from './adapter.ts';

const EXIT2_DEFAULT = 'hook blocked (exit 2)';
const s = () => z.string({ error: 'expected string' }).optional();
const haltRun = z.object({ reason: z.string({ error: 'expected string' }) }, { error: 'expected {reason}' }).optional();
const decision = z.enum(['allow', 'deny', 'ask'], { error: 'expected allow|deny|ask' }).optional();

const decisionSchema = z.strictObject({
  decision,
  haltRun,
  injectContext: s(),
  agentMessage: s(),
  userMessage: s(),
  continue: z.boolean({ error: 'expected boolean' }).optional(),
  stopReason: s(),
});
const toolGateSchema = decisionSchema.extend({
  updatedInput: z.record(z.string(), z.unknown(), { error: 'expected object' }).optional(),
});
const observationSchema = z.strictObject({ injectContext: s(), agentMessage: s(), userMessage: s() });
const asyncSchema = z.strictObject({
  haltRun,
  queueMessage: z
    .object(
      { text: z.string({ error: 'expected string' }), sendNow: z.boolean().optional() },
      { error: 'expected {text, sendNow?}' },
    )
    .optional(),
  userMessage: s(),
  continue: z.boolean({ error: 'expected boolean' }).optional(),
  stopReason: s(),
});
const sessionStartSchema = asyncSchema.extend({
  sessionEnv: z.record(z.string(), z.unknown(), { error: 'expected object' }).optional(),
});

function schemaFor(event: CanonicalEvent): z.ZodType<Record<string, unknown>> {
  if (event === 'toolGate') return toolGateSchema;
  if (event === 'sessionStart') return sessionStartSchema;
  const kind = EVENT_TRAITS[event].kind;
  return kind === 'decision' ? decisionSchema : kind === 'observation' ? observationSchema : asyncSchema;
}

function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function marshal(hook: CommandHook, payload: object, ctx: HookContext): Record<string, unknown> {
  const out: Record<string, unknown> = {
    hook_event_name: hook.event,
    conversation_id: ctx.conversationId ?? '',
    generation_id: ctx.generationId ?? '',
    workspace_roots: ctx.workspaceRoots ?? [hook.projectDir ?? hook.cwd],
    model: ctx.model ?? {},
  };
  for (const [key, value] of Object.entries(payload)) {
    out[camelToSnake(key)] =
      key === 'output' && typeof value === 'string' ? value.slice(0, MAX_TOOL_OUTPUT_CHARS) : value;
  }
  return out;
}

function interpret(run: ExitedRun, hook: CommandHook): Interpretation {
  const event = hook.event;
  const kind = EVENT_TRAITS[event].kind;
  if (run.exitCode === 2 && kind === 'decision') {
    const message = stderrMessage(run.stderr, EXIT2_DEFAULT);
    if (event === 'beforeSubmitPrompt') return decided({ haltRun: { reason: message }, agentMessage: message });
    return decided({ decision: 'deny', agentMessage: message });
  }
  if (run.exitCode !== 0) return exitFailure(run);
  const parsed = parseStdout(run.stdout);
  if (parsed.kind === 'empty') return noOutcome();
  if (parsed.kind === 'invalid') return failure(parsed.message, false);
  const result = schemaFor(event).safeParse(parsed.value);
  if (!result.success) {
    const issue = formatZodIssues(result.error, parsed.value, '')[0];
    return failure(`invalid output ${issue?.message ?? ''}`.trim(), false);
  }
  const {
    continue: cont,
    stopReason,
    sessionEnv,
    queueMessage,
    ...rest
  } = result.data as BlockingOutcome &
    AsyncOutcome & { continue?: boolean; stopReason?: string; sessionEnv?: Record<string, unknown> };
  const outcome: BlockingOutcome & AsyncOutcome = { ...rest };
  if (cont === false && outcome.haltRun === undefined)
    outcome.haltRun = { reason: stopReason ?? 'hook stopped the run' };
  if (outcome.decision === 'ask' && (event === 'subagentStart' || event === 'beforeDiffApply'))
    outcome.decision = 'deny';
  if (queueMessage !== undefined)
    outcome.queueMessage = { text: queueMessage.text, sendNow: queueMessage.sendNow ?? false };
  const dropped: string[] = [];
  if (sessionEnv !== undefined) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(sessionEnv)) {
      if (typeof v === 'string') env[k] = v;
      else dropped.push(k);
    }
    outcome.sessionEnv = env;
  }
  return decided(
    Object.keys(outcome).length === 0 ? null : outcome,
    dropped.length > 0 ? { droppedSessionEnvKeys: dropped } : {},
  );
}

function handler<E extends CanonicalEvent>(): DialectEventHandler<E> {
  return { marshal, interpret: (run, _payload, hook) => interpret(run, hook) };
}

const events: DialectEventTable = {
  toolGate: { ...handler<'toolGate'>(), subject: (p) => p.toolName },
  beforeSubmitPrompt: handler(),
  afterFileEdit: handler(),
  subagentStart: { ...handler<'subagentStart'>(), subject: (p) => p.subagentType },
  beforeDiffApply: handler(),
  stop: handler(),
  afterToolUse: { ...handler<'afterToolUse'>(), subject: (p) => p.toolName },
  subagentStop: { ...handler<'subagentStop'>(), subject: (p) => p.subagentType },
  sessionStart: handler(),
  permissionDecision: { ...handler<'permissionDecision'>(), subject: (p) => p.toolName },
  afterDiffApply: handler(),
  postTurnReview: handler(),
};

/** Orca's own strict dialect (`.orca/hooks.json`), canonical event names. */
export const orcaDialect: DialectAdapter = {
  env: (hook) => ({ ORCA_PROJECT_DIR: hook.projectDir ?? hook.cwd }),
  events,
};
