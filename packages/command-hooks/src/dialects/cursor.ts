import { z } from 'zod';
import type { EventPayloads, HookContext } from '../events.ts';
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
import { isPlainObject } from '../internal/text.ts';
import {
  cursorToolFamily,
  cursorToolToken,
  parseMcpToolName,
  toCanonicalInput,
  toVendorInput,
} from '../internal/tools.ts';
import { PACKAGE_VERSION } from '../internal/version.ts';
import { formatZodIssues } from '../internal/zod-issues.ts';
import { DEFAULT_LOOP_LIMIT, MAX_TOOL_OUTPUT_CHARS } from '../limits.ts';
import type { AsyncOutcome, BlockingOutcome } from '../outcome.ts';
import type { RunDecision } from '../records.ts';
import type { DialectAdapter } from './adapter.ts';

const EXIT2_DEFAULT = 'hook blocked (exit 2)';
const HALT_DEFAULT = 'hook stopped the prompt (continue:false)';
const str = () => z.string({ error: 'expected string' }).nullish();

const cursorOutputSchema = z.object({
  permission: z.enum(['allow', 'deny', 'ask'], { error: 'expected allow|deny|ask' }).nullish(),
  user_message: str(),
  userMessage: str(),
  agent_message: str(),
  agentMessage: str(),
  additional_context: str(),
  additionalContext: str(),
  continue: z.boolean({ error: 'expected boolean' }).nullish(),
  followup_message: str(),
  env: z.record(z.string(), z.unknown(), { error: 'expected object' }).nullish(),
});
type CursorOutput = z.output<typeof cursorOutputSchema> & { updated_input?: unknown; updatedInput?: unknown };

/** `ask` is enforced only here; elsewhere on the gate it is recorded `enforced:false`. */
const ASK_ENFORCED = new Set(['beforeShellExecution', 'beforeMCPExecution']);
/** After/observation events whose output Cursor never reads. */
const UNREAD_OUTPUT = new Set(['afterShellExecution', 'afterMCPExecution', 'afterFileEdit']);

type Parsed = { ok: true; out: CursorOutput | null } | { ok: false; failure: Interpretation };

function parseOutput(stdout: string): Parsed {
  const parsed = parseStdout(stdout);
  if (parsed.kind === 'empty') return { ok: true, out: null };
  if (parsed.kind === 'invalid') return { ok: false, failure: failure(parsed.message, false) };
  const result = cursorOutputSchema.safeParse(parsed.value);
  if (!result.success) {
    const issue = formatZodIssues(result.error, parsed.value, '')[0];
    return { ok: false, failure: failure(`invalid output ${issue?.message ?? ''}`.trim(), false) };
  }
  return {
    ok: true,
    out: { ...result.data, updated_input: parsed.value.updated_input, updatedInput: parsed.value.updatedInput },
  };
}

/** Both spellings: snake_case wins (2.x), camelCase is 1.7's. */
function messages(out: CursorOutput): { userMessage?: string; agentMessage?: string } {
  const m: { userMessage?: string; agentMessage?: string } = {};
  const user = out.user_message ?? out.userMessage;
  const agent = out.agent_message ?? out.agentMessage;
  if (user != null) m.userMessage = user;
  if (agent != null) m.agentMessage = agent;
  return m;
}

function base(hook: CommandHook, ctx: HookContext): Record<string, unknown> {
  const o: Record<string, unknown> = {
    conversation_id: ctx.conversationId ?? '',
    generation_id: ctx.generationId ?? '',
    hook_event_name: hook.wireEvent,
    cursor_version: `orca/${PACKAGE_VERSION}`,
    workspace_roots: ctx.workspaceRoots ?? [hook.projectDir ?? hook.cwd],
    user_email: null,
    transcript_path: null,
    model: ctx.model?.name ?? '',
  };
  if (ctx.model?.id !== undefined) o.model_id = ctx.model.id;
  if (ctx.model?.params !== undefined) o.model_params = ctx.model.params;
  return o;
}

function interpretPermission(run: ExitedRun, hook: CommandHook, toolName: string | null): Interpretation {
  const wire = hook.wireEvent;
  if (run.exitCode === 2) {
    const parsed = parseOutput(run.stdout);
    const m = parsed.ok && parsed.out ? messages(parsed.out) : {};
    const agentMessage = m.agentMessage ?? stderrMessage(run.stderr, EXIT2_DEFAULT);
    return decided({ decision: 'deny', agentMessage, ...(m.userMessage ? { userMessage: m.userMessage } : {}) });
  }
  if (run.exitCode !== 0) return exitFailure(run);
  const parsed = parseOutput(run.stdout);
  if (!parsed.ok) return parsed.failure;
  if (parsed.out === null) return noOutcome();
  const out = parsed.out;
  const o: BlockingOutcome = { ...messages(out) };
  const decision: RunDecision = {};
  if (out.permission != null) {
    if (out.permission === 'ask' && wire === 'subagentStart') o.decision = 'deny';
    else if (out.permission === 'ask' && !ASK_ENFORCED.has(wire)) {
      decision.permission = 'ask';
      decision.enforced = false;
    } else o.decision = out.permission;
  }
  const updated = out.updated_input ?? out.updatedInput;
  if (updated !== undefined && toolName !== null) {
    if (isPlainObject(updated)) o.updatedInput = toCanonicalInput(toolName, updated);
    else decision.ignoredFields = ['updated_input'];
  }
  const extra = out.additional_context ?? out.additionalContext;
  if (extra != null) o.injectContext = extra;
  return decided(Object.keys(o).length === 0 ? null : o, decision);
}

function interpretFollowup(run: ExitedRun, hook: CommandHook, loopCount: number, active: boolean): Interpretation {
  if (run.exitCode !== 0) return exitFailure(run);
  const parsed = parseOutput(run.stdout);
  if (!parsed.ok) return parsed.failure;
  const text = parsed.out?.followup_message;
  if (text == null || text === '' || !active) return noOutcome();
  const limit = hook.loopLimit === undefined ? DEFAULT_LOOP_LIMIT : hook.loopLimit;
  if (limit !== null && loopCount >= limit) return noOutcome(true, { loopLimitReached: true });
  return decided({ queueMessage: { text, sendNow: false } });
}

function interpretUnread(run: ExitedRun): Interpretation {
  if (run.exitCode !== 0) return exitFailure(run);
  // Why: Cursor never reads these outputs; noise only marks the record, it is not a failure.
  return noOutcome(parseStdout(run.stdout).kind !== 'invalid');
}

function interpretAfterTool(run: ExitedRun, hook: CommandHook): Interpretation {
  if (UNREAD_OUTPUT.has(hook.wireEvent)) return interpretUnread(run);
  if (run.exitCode !== 0) return exitFailure(run);
  const parsed = parseOutput(run.stdout);
  if (!parsed.ok) return parsed.failure;
  const extra = parsed.out?.additional_context ?? parsed.out?.additionalContext;
  return extra == null ? noOutcome() : decided({ queueMessage: { text: extra, sendNow: false } });
}

function marshalToolGate(hook: CommandHook, p: EventPayloads['toolGate'], ctx: HookContext) {
  const family = cursorToolFamily(p.toolName);
  const b = base(hook, ctx);
  switch (hook.wireEvent) {
    case 'beforeShellExecution':
      return family === 'shell'
        ? { ...b, command: p.input.command ?? '', cwd: p.input.cwd ?? p.cwd ?? hook.cwd }
        : null;
    case 'beforeMCPExecution': {
      const mcp = parseMcpToolName(p.toolName);
      return mcp ? { ...b, tool_name: mcp.tool, tool_input: JSON.stringify(p.input) } : null;
    }
    case 'beforeReadFile':
      return family === 'read' ? { ...b, file_path: p.input.path ?? '', content: p.fileContent ?? '' } : null;
    default:
      return {
        ...b,
        tool_name: cursorToolToken(p.toolName),
        tool_input: toVendorInput(p.toolName, p.input),
        tool_use_id: p.toolUseId ?? '',
        cwd: p.cwd ?? hook.cwd,
      };
  }
}

function marshalAfterTool(hook: CommandHook, p: EventPayloads['afterToolUse'], ctx: HookContext) {
  const family = cursorToolFamily(p.toolName);
  const input = p.input ?? {};
  const output = (p.output ?? '').slice(0, MAX_TOOL_OUTPUT_CHARS);
  const b = base(hook, ctx);
  const duration = p.durationMs ?? 0;
  switch (hook.wireEvent) {
    case 'afterShellExecution':
      return family === 'shell' ? { ...b, command: input.command ?? '', output, duration } : null;
    case 'afterMCPExecution': {
      const mcp = parseMcpToolName(p.toolName);
      return mcp
        ? { ...b, tool_name: mcp.tool, tool_input: JSON.stringify(input), result_json: output, duration }
        : null;
    }
    case 'postToolUseFailure':
      if (!p.isError) return null;
      return {
        ...b,
        tool_name: cursorToolToken(p.toolName),
        tool_input: toVendorInput(p.toolName, input),
        tool_use_id: p.toolUseId,
        tool_output: output,
        duration,
        error_message: p.errorMessage ?? '',
        failure_type: 'error',
        is_interrupt: false,
      };
    default:
      if (p.isError) return null;
      return {
        ...b,
        tool_name: cursorToolToken(p.toolName),
        tool_input: toVendorInput(p.toolName, input),
        tool_use_id: p.toolUseId,
        tool_output: output,
        duration,
      };
  }
}

function toolSubject(hook: CommandHook, toolName: string, input: Record<string, unknown>): string {
  const family = hook.wireEvent.endsWith('ShellExecution')
    ? 'shell'
    : hook.wireEvent.endsWith('MCPExecution')
      ? 'mcp'
      : null;
  if (family === 'shell') return typeof input.command === 'string' ? input.command : '';
  if (family === 'mcp') return parseMcpToolName(toolName)?.tool ?? toolName;
  if (hook.wireEvent === 'beforeReadFile') return 'Read';
  return cursorToolToken(toolName);
}

function sessionEnvFrom(out: CursorOutput | null): { outcome: AsyncOutcome | null; decision: RunDecision } {
  const decision: RunDecision = {};
  if (out?.additional_context != null || out?.additionalContext != null)
    decision.ignoredFields = ['additional_context'];
  if (out?.env == null) return { outcome: null, decision };
  const env: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [k, v] of Object.entries(out.env)) {
    if (typeof v === 'string') env[k] = v;
    else dropped.push(k);
  }
  if (dropped.length > 0) decision.droppedSessionEnvKeys = dropped;
  return { outcome: { sessionEnv: env }, decision };
}

/** Cursor dialect (`.cursor/hooks.json`). */
export const cursorDialect: DialectAdapter = {
  env: (hook) => {
    const root = hook.projectDir ?? hook.cwd;
    return { CURSOR_PROJECT_DIR: root, CURSOR_VERSION: `orca/${PACKAGE_VERSION}`, CLAUDE_PROJECT_DIR: root };
  },
  events: {
    toolGate: {
      subject: (p, hook) => toolSubject(hook, p.toolName, p.input),
      marshal: marshalToolGate,
      interpret: (run, p, hook) => interpretPermission(run, hook, p.toolName),
    },
    afterToolUse: {
      subject: (p, hook) => toolSubject(hook, p.toolName, p.input ?? {}),
      marshal: marshalAfterTool,
      interpret: (run, _p, hook) => interpretAfterTool(run, hook),
    },
    beforeSubmitPrompt: {
      subject: () => 'UserPromptSubmit',
      marshal: (hook, p, ctx) => ({ ...base(hook, ctx), prompt: p.prompt, attachments: p.attachments ?? [] }),
      interpret(run) {
        if (run.exitCode === 2) {
          const reason = stderrMessage(run.stderr, EXIT2_DEFAULT);
          return decided({ haltRun: { reason }, userMessage: reason });
        }
        if (run.exitCode !== 0) return exitFailure(run);
        const parsed = parseOutput(run.stdout);
        if (!parsed.ok) return parsed.failure;
        if (parsed.out?.continue !== false) return noOutcome();
        const m = messages(parsed.out);
        const reason = m.userMessage ?? HALT_DEFAULT;
        return decided({
          haltRun: { reason },
          userMessage: reason,
          ...(m.agentMessage ? { agentMessage: m.agentMessage } : {}),
        });
      },
    },
    afterFileEdit: {
      subject: () => 'Write',
      marshal: (hook, p, ctx) => ({ ...base(hook, ctx), file_path: p.filePath, edits: p.edits ?? [] }),
      interpret: interpretUnread,
    },
    stop: {
      subject: () => 'Stop',
      marshal: (hook, p, ctx) => ({ ...base(hook, ctx), status: p.status, loop_count: p.loopCount ?? 0 }),
      interpret: (run, p, hook) => interpretFollowup(run, hook, p.loopCount ?? 0, true),
    },
    subagentStart: {
      subject: (p) => p.subagentType,
      marshal: (hook, p, ctx) => ({
        ...base(hook, ctx),
        subagent_type: p.subagentType,
        task: p.task ?? '',
        subagent_model: p.model ?? '',
      }),
      interpret: (run, _p, hook) => interpretPermission(run, hook, null),
    },
    subagentStop: {
      subject: (p) => p.subagentType,
      marshal: (hook, p, ctx) => ({
        ...base(hook, ctx),
        subagent_type: p.subagentType,
        status: p.status,
        loop_count: p.loopCount ?? 0,
      }),
      interpret: (run, p, hook) => interpretFollowup(run, hook, p.loopCount ?? 0, p.status === 'completed'),
    },
    sessionStart: {
      subject: () => '',
      marshal: (hook, _p, ctx) => ({
        ...base(hook, ctx),
        session_id: ctx.conversationId ?? '',
        is_background_agent: false,
        composer_mode: 'agent',
      }),
      interpret(run) {
        if (run.exitCode !== 0) return exitFailure(run);
        const parsed = parseOutput(run.stdout);
        if (!parsed.ok) return parsed.failure;
        const { outcome, decision } = sessionEnvFrom(parsed.out);
        return decided(outcome, decision);
      },
    },
  },
};
