import { z } from 'zod';
import type { HookContext } from '../events.ts';
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
  stripBom,
} from '../internal/interpretation.ts';
import { claudeToolName, toCanonicalInput, toVendorInput } from '../internal/tools.ts';
import { formatZodIssues } from '../internal/zod-issues.ts';
import { MAX_TOOL_OUTPUT_CHARS } from '../limits.ts';
import type { AsyncOutcome, BlockingOutcome } from '../outcome.ts';
import type { DialectAdapter } from './adapter.ts';

const EXIT2_DEFAULT = 'hook blocked (exit 2)';
const HALT_DEFAULT = 'hook stopped the run (continue:false)';

const claudeOutputSchema = z.object({
  continue: z.boolean({ error: 'expected boolean' }).nullish(),
  stopReason: z.string({ error: 'expected string' }).nullish(),
  suppressOutput: z.boolean({ error: 'expected boolean' }).nullish(),
  systemMessage: z.string({ error: 'expected string' }).nullish(),
  decision: z.enum(['approve', 'block'], { error: 'expected "approve" or "block"' }).nullish(),
  reason: z.string({ error: 'expected string' }).nullish(),
  hookSpecificOutput: z
    .object(
      {
        hookEventName: z.string({ error: 'expected string' }).nullish(),
        permissionDecision: z
          .enum(['allow', 'deny', 'ask', 'defer'], { error: 'expected allow|deny|ask|defer' })
          .nullish(),
        permissionDecisionReason: z.string({ error: 'expected string' }).nullish(),
        updatedInput: z.record(z.string(), z.unknown(), { error: 'expected object' }).nullish(),
        additionalContext: z.string({ error: 'expected string' }).nullish(),
      },
      { error: 'expected object' },
    )
    .nullish(),
});
type ClaudeOutput = z.output<typeof claudeOutputSchema>;

function base(hook: CommandHook, ctx: HookContext): Record<string, unknown> {
  return {
    session_id: ctx.conversationId ?? '',
    transcript_path: '',
    cwd: hook.cwd,
    permission_mode: 'default',
    hook_event_name: hook.wireEvent,
  };
}

/**
 * Exit 0: parse one object (plain text allowed when `plainTextContext`), apply the shared
 * `continue`/`systemMessage` rules, then `specific` for the event's own fields.
 */
function interpretExit0(
  run: ExitedRun,
  specific: (out: ClaudeOutput) => BlockingOutcome & AsyncOutcome,
  plainTextContext = false,
): Interpretation {
  const parsed = parseStdout(run.stdout);
  if (parsed.kind === 'empty') return noOutcome();
  if (parsed.kind === 'invalid') {
    if (plainTextContext) return decided({ injectContext: stripBom(run.stdout).trim() });
    return failure(parsed.message, false);
  }
  const result = claudeOutputSchema.safeParse(parsed.value);
  if (!result.success) {
    const issue = formatZodIssues(result.error, parsed.value, '')[0];
    return failure(`invalid output ${issue?.message ?? ''}`.trim(), false);
  }
  const out = result.data;
  if (out.continue === false) {
    const reason = out.stopReason ?? HALT_DEFAULT;
    return decided({ haltRun: { reason }, userMessage: reason });
  }
  const outcome = specific(out);
  if (out.systemMessage != null) outcome.userMessage = out.systemMessage;
  return decided(Object.keys(outcome).length === 0 ? null : outcome);
}

function queueFrom(out: ClaudeOutput): AsyncOutcome {
  const parts: string[] = [];
  if (out.decision === 'block' && out.reason != null) parts.push(out.reason);
  const extra = out.hookSpecificOutput?.additionalContext;
  if (extra != null) parts.push(extra);
  return parts.length === 0 ? {} : { queueMessage: { text: parts.join('\n'), sendNow: false } };
}

function exitWith(
  run: ExitedRun,
  onExit2: (message: string) => BlockingOutcome & AsyncOutcome,
  onExit0: (run: ExitedRun) => Interpretation,
): Interpretation {
  if (run.exitCode === 2) return decided(onExit2(stderrMessage(run.stderr, EXIT2_DEFAULT)));
  if (run.exitCode === 0) return onExit0(run);
  return exitFailure(run);
}

const queueOnExit2 = (text: string): AsyncOutcome => ({ queueMessage: { text, sendNow: false } });

/** Claude Code dialect (`.claude/settings.json`). */
export const claudeDialect: DialectAdapter = {
  env: (hook) => ({ CLAUDE_PROJECT_DIR: hook.projectDir ?? hook.cwd }),
  events: {
    toolGate: {
      subject: (p) => claudeToolName(p.toolName) ?? p.toolName,
      marshal(hook, p, ctx) {
        const name = claudeToolName(p.toolName);
        if (name === null) return null;
        return {
          ...base(hook, ctx),
          tool_name: name,
          tool_input: toVendorInput(p.toolName, p.input),
          tool_use_id: p.toolUseId ?? '',
        };
      },
      interpret: (run, p) =>
        exitWith(
          run,
          (message) => ({ decision: 'deny', agentMessage: message }),
          (r) =>
            interpretExit0(r, (out) => {
              const o: BlockingOutcome = {};
              const hso = out.hookSpecificOutput;
              const pd = hso?.permissionDecision;
              if (pd != null) o.decision = pd === 'defer' ? 'ask' : pd;
              else if (out.decision === 'approve') o.decision = 'allow';
              else if (out.decision === 'block') o.decision = 'deny';
              const reason = hso?.permissionDecisionReason ?? (pd == null ? out.reason : undefined);
              if (reason != null) {
                if (o.decision === 'deny') o.agentMessage = reason;
                else o.userMessage = reason;
              }
              if (hso?.updatedInput != null) o.updatedInput = toCanonicalInput(p.toolName, hso.updatedInput);
              if (hso?.additionalContext != null) o.injectContext = hso.additionalContext;
              return o;
            }),
        ),
    },
    beforeSubmitPrompt: {
      marshal: (hook, p, ctx) => ({ ...base(hook, ctx), prompt: p.prompt }),
      interpret: (run) =>
        exitWith(
          run,
          (message) => ({ haltRun: { reason: message }, userMessage: message }),
          (r) =>
            interpretExit0(
              r,
              (out) => {
                const o: BlockingOutcome = {};
                if (out.decision === 'block') {
                  const reason = out.reason ?? EXIT2_DEFAULT;
                  o.haltRun = { reason };
                  o.userMessage = reason;
                }
                const extra = out.hookSpecificOutput?.additionalContext;
                if (extra != null) o.injectContext = extra;
                return o;
              },
              true,
            ),
        ),
    },
    stop: {
      marshal: (hook, p, ctx) => ({ ...base(hook, ctx), stop_hook_active: (p.loopCount ?? 0) > 0 }),
      interpret: (run) => exitWith(run, queueOnExit2, (r) => interpretExit0(r, queueFrom)),
    },
    subagentStop: {
      marshal: (hook, p, ctx) => ({
        ...base(hook, ctx),
        stop_hook_active: (p.loopCount ?? 0) > 0,
        agent_type: p.subagentType,
      }),
      interpret: (run) => exitWith(run, queueOnExit2, (r) => interpretExit0(r, queueFrom)),
    },
    afterToolUse: {
      subject: (p) => claudeToolName(p.toolName) ?? p.toolName,
      marshal(hook, p, ctx) {
        const name = claudeToolName(p.toolName);
        const wantsFailure = hook.wireEvent === 'PostToolUseFailure';
        if (name === null || wantsFailure !== p.isError) return null;
        const common = {
          ...base(hook, ctx),
          tool_name: name,
          tool_input: toVendorInput(p.toolName, p.input ?? {}),
          tool_use_id: p.toolUseId,
        };
        return wantsFailure
          ? { ...common, error: p.errorMessage ?? '', is_interrupt: false }
          : { ...common, tool_response: (p.output ?? '').slice(0, MAX_TOOL_OUTPUT_CHARS) };
      },
      interpret: (run) => exitWith(run, queueOnExit2, (r) => interpretExit0(r, queueFrom)),
    },
    sessionStart: {
      subject: (p) => p.source ?? 'startup',
      marshal: (hook, p, ctx) => ({
        ...base(hook, ctx),
        source: p.source ?? 'startup',
        model: ctx.model?.id ?? ctx.model?.name ?? '',
      }),
      interpret: (run) =>
        exitWith(
          run,
          (message) => ({ userMessage: message }),
          // Why: sessionStart additionalContext is recorded (raw stdout), not applied — a documented limit.
          (r) => interpretExit0(r, () => ({})),
        ),
    },
  },
};
