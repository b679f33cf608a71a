import type { DialectEventHandler } from './dialects/adapter.ts';
import { DIALECTS } from './dialects/registry.ts';
import { DetachedDispatcher, type DispatchStatus } from './dispatcher.ts';
import { buildChildEnv, parseHookDepth, scrubLlmCredentials } from './env.ts';
import { type CanonicalEvent, EVENT_TRAITS, type EventPayloads, type HookContext, threadKeyOf } from './events.ts';
import type { CommandHook } from './hook.ts';
import { commonFailure, type Interpretation } from './internal/interpretation.ts';
import { safeStringify, truncateText } from './internal/text.ts';
import { MAX_COMMAND_ECHO_CHARS, MAX_HOOK_DEPTH } from './limits.ts';
import { globAccepts, matcherAccepts } from './matchers.ts';
import { type AsyncOutcome, type BlockingOutcome, type HookRunResult, mergeOutcomes } from './outcome.ts';
import type { DropRecord, HookRecord, RunDecision } from './records.ts';
import { buildRecord, summarize, withThreadedInput } from './run-record.ts';
import type { CommandHookRunner, CommandHookRunnerOptions } from './runner-types.ts';
import { sandboxBlockReasons } from './sandbox.ts';
import { SessionEnvStore } from './session-env.ts';
import { spawnHook } from './spawn.ts';

export type {
  AsyncOutcomeEvent,
  CommandHookRunner,
  CommandHookRunnerOptions,
  FailurePolicy,
  HookRuntimeErrorEvent,
} from './runner-types.ts';

const ABSTAIN: HookRunResult = { outcome: null, failed: false };
const DEFAULT_CONVERSATION = 'default';

interface RunOptions {
  /** Async hook on a blocking event: its decision is recorded but not enforced. */
  unenforced?: boolean;
}

/**
 * Create a command-hook runner. It spawns real processes (never hanging, group-killed on
 * timeout), interprets each dialect faithfully, records every spawned run, merges blocking
 * outcomes and queues detached ones per thread.
 *
 * @example
 * const { hooks } = await discoverHooks('/repo', { home: os.homedir() });
 * const runner = createCommandHookRunner({ hooks, record: (r) => store.push(r) });
 * const out = await runner.emit('toolGate', { toolName: 'run_shell', input: { command: 'rm -rf /' } });
 * if (out.decision === 'deny') refuse(out.agentMessage);
 */
export function createCommandHookRunner(opts: CommandHookRunnerOptions): CommandHookRunner {
  const policy = opts.failurePolicy ?? 'vendor';
  const clock = opts.clock ?? Date.now;
  const scrub = opts.scrubEnv ?? scrubLlmCredentials;
  const sessions = new SessionEnvStore();
  const reportedErrors = new Set<string>();
  const onError = (error: unknown): void => {
    try {
      opts.onError?.(error);
    } catch {}
  };
  const dispatcher = new DetachedDispatcher({ onError });
  const currentHooks = (): readonly CommandHook[] => (typeof opts.hooks === 'function' ? opts.hooks() : opts.hooks);
  const emitRecord = (record: HookRecord): void => {
    try {
      opts.record?.(record);
    } catch (error) {
      onError(error);
    }
  };

  function handlerOf<E extends CanonicalEvent>(hook: CommandHook & { event: E }): DialectEventHandler<E> | undefined {
    const table = DIALECTS[hook.dialect].events;
    const handler: DialectEventHandler<E> | undefined = table[hook.event];
    return handler;
  }

  /** The stdin object when the hook applies, else null (abstain: no spawn, no record). */
  function plan<E extends CanonicalEvent>(
    hook: CommandHook & { event: E },
    payload: EventPayloads[E],
    ctx: HookContext,
  ): { handler: DialectEventHandler<E>; request: Record<string, unknown> } | null {
    if (parseHookDepth(opts.baseEnv ?? process.env) >= MAX_HOOK_DEPTH) return null;
    const handler = handlerOf(hook);
    if (handler === undefined) return null;
    if (!matcherAccepts(hook.dialect, hook.matcher, handler.subject?.(payload, hook))) return null;
    if (hook.glob !== undefined && typeof payload === 'object' && payload !== null && 'filePath' in payload) {
      const filePath = payload.filePath;
      if (typeof filePath === 'string' && !globAccepts(hook.glob, filePath, hook.projectDir ?? hook.cwd)) return null;
    }
    const request = handler.marshal(hook, payload, ctx);
    return request === null ? null : { handler, request };
  }

  function resolveFailure(hook: CommandHook, interp: Interpretation): HookRunResult {
    const failureMode = policy === 'strict' ? 'closed' : hook.onFailure;
    const blocks = failureMode === 'closed' && EVENT_TRAITS[hook.event].kind === 'decision';
    const outcome: BlockingOutcome | null = blocks
      ? {
          decision: 'deny',
          agentMessage: `hook "${truncateText(hook.command, MAX_COMMAND_ECHO_CHARS)}" ${interp.runtimeError ?? 'failed'} — blocked by failClosed`,
        }
      : null;
    return { outcome, failed: true, failureMode };
  }

  function reportRuntimeError(hook: CommandHook, ctx: HookContext, message: string): void {
    const key = `${hook.id}\u0000${ctx.conversationId ?? ''}`;
    if (reportedErrors.has(key)) return;
    reportedErrors.add(key);
    try {
      opts.onRuntimeError?.({
        event: hook.event,
        hookId: hook.id,
        ...(ctx.conversationId !== undefined ? { conversationId: ctx.conversationId } : {}),
        message,
      });
    } catch (error) {
      onError(error);
    }
  }

  async function runOne<E extends CanonicalEvent>(
    hook: CommandHook & { event: E },
    payload: EventPayloads[E],
    ctx: HookContext,
    runOpts: RunOptions = {},
  ): Promise<{ result: HookRunResult; spawned: boolean }> {
    const planned = plan(hook, payload, ctx);
    if (planned === null) return { result: ABSTAIN, spawned: false };
    const stdin = safeStringify(planned.request);
    const baseEnv = opts.baseEnv ?? process.env;
    const depth = parseHookDepth(baseEnv);
    const conversation = ctx.conversationId ?? DEFAULT_CONVERSATION;
    const { env, droppedSessionKeys } = buildChildEnv({
      scrubbedBase: scrub(baseEnv),
      dialectVars: DIALECTS[hook.dialect].env(hook),
      ...(sessions.get(conversation) ? { sessionEnv: sessions.get(conversation) } : {}),
      depth,
    });
    let sandboxed = false;
    try {
      sandboxed = hook.sandbox !== false && opts.sandbox?.enabled() === true;
    } catch {
      sandboxed = false;
    }
    const spawn = await spawnHook({
      command: hook.command,
      cwd: hook.cwd,
      env,
      stdin,
      timeoutMs: hook.timeoutMs,
      clock,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(sandboxed && opts.sandbox ? { sandbox: opts.sandbox } : {}),
      ...(opts.spawn ? { spawn: opts.spawn } : {}),
      ...(opts.platform ? { platform: opts.platform } : {}),
    });

    let interp: Interpretation;
    if (spawn.aborted) {
      interp = { outcome: null, failed: false, parseOk: true, decision: {} };
    } else {
      interp =
        commonFailure(spawn) ??
        planned.handler.interpret(
          { exitCode: spawn.exitCode ?? 0, stdout: spawn.stdout, stderr: spawn.stderr },
          payload,
          hook,
        );
      const reasons = sandboxBlockReasons({
        sandboxed: spawn.sandboxed,
        exitCode: spawn.exitCode,
        violations: spawn.sandboxViolations,
        ...(spawn.spawnError !== undefined ? { spawnError: spawn.spawnError } : {}),
      });
      if (reasons.length > 0) {
        // Why: a blocked run printed nothing trustworthy; any allow, queueMessage or env is dropped.
        interp = {
          outcome: null,
          failed: true,
          parseOk: false,
          runtimeError: `blocked by the project sandbox (${reasons.join('; ')})`,
          decision: { sandboxBlocked: true },
        };
      }
    }

    let result: HookRunResult = interp.failed
      ? resolveFailure(hook, interp)
      : { outcome: interp.outcome, failed: false };
    const decision: RunDecision = { ...interp.decision };
    if (droppedSessionKeys.length > 0) decision.droppedSessionEnvKeys = droppedSessionKeys;
    const out: (BlockingOutcome & AsyncOutcome) | null = result.outcome;
    if (hook.event === 'sessionStart' && out?.sessionEnv !== undefined) {
      const { accepted, dropped } = sessions.merge(conversation, out.sessionEnv);
      const kept: Record<string, string> = {};
      for (const key of accepted) {
        const value = out.sessionEnv[key];
        if (value !== undefined) kept[key] = value;
      }
      result = { ...result, outcome: { ...out, sessionEnv: kept } };
      decision.sessionEnvKeys = accepted;
      const allDropped = [...(decision.droppedSessionEnvKeys ?? []), ...dropped];
      if (allDropped.length > 0) decision.droppedSessionEnvKeys = allDropped;
    }
    const summary = summarize(result.outcome, decision);
    if (runOpts.unenforced && summary.permission !== undefined) summary.enforced = false;

    emitRecord(buildRecord(hook, ctx, spawn, interp, result, summary));
    if (result.failed && interp.runtimeError !== undefined) reportRuntimeError(hook, ctx, interp.runtimeError);
    return { result, spawned: true };
  }

  function dispatchDetached<E extends CanonicalEvent>(
    hook: CommandHook & { event: E },
    payload: EventPayloads[E],
    ctx: HookContext,
    runOpts: RunOptions,
  ): DispatchStatus {
    const thread = threadKeyOf(ctx);
    return dispatcher.dispatch(thread, {
      run: async () => {
        const { result } = await runOne(hook, payload, ctx, runOpts);
        const o: (BlockingOutcome & AsyncOutcome) | null = result.outcome;
        if (o === null || opts.onAsyncOutcome === undefined) return;
        // Why: an async hook on a blocking event cannot decide after the fact; only its user message travels.
        const outcome: AsyncOutcome = runOpts.unenforced ? (o.userMessage ? { userMessage: o.userMessage } : {}) : o;
        if (Object.keys(outcome).length === 0) return;
        opts.onAsyncOutcome({
          event: hook.event,
          hookId: hook.id,
          ...(ctx.conversationId !== undefined ? { conversationId: ctx.conversationId } : {}),
          outcome,
        });
      },
      onDrop: (reason) => {
        const drop: DropRecord = {
          kind: 'dropped',
          event: hook.wireEvent,
          hookId: hook.id,
          threadId: thread,
          ...(ctx.turnTreeId !== undefined ? { turnTreeId: ctx.turnTreeId } : {}),
          reason,
          at: clock(),
        };
        emitRecord(drop);
      },
    });
  }

  function hooksFor<E extends CanonicalEvent>(event: E): (CommandHook & { event: E })[] {
    return currentHooks().filter((h): h is CommandHook & { event: E } => h.event === event);
  }

  return {
    async run(hook, payload, ctx = {}) {
      try {
        return (await runOne(hook, payload, ctx)).result;
      } catch (error) {
        onError(error);
        return ABSTAIN;
      }
    },

    async emit(event, payload, ctx = {}) {
      const outcomes: (BlockingOutcome | null)[] = [];
      let runs = 0;
      let failedRuns = 0;
      let current = payload;
      let threaded: Record<string, unknown> | undefined;
      for (const hook of hooksFor(event)) {
        if (hook.async === true) {
          if (plan(hook, current, ctx) !== null) dispatchDetached(hook, current, ctx, { unenforced: true });
          continue;
        }
        let r: { result: HookRunResult; spawned: boolean };
        try {
          r = await runOne(hook, current, ctx);
        } catch (error) {
          onError(error);
          continue;
        }
        if (r.spawned) runs++;
        if (r.result.failed) failedRuns++;
        const o: BlockingOutcome | null = r.result.outcome;
        outcomes.push(o);
        if (event === 'toolGate' && o?.updatedInput !== undefined) {
          threaded = { ...threaded, ...o.updatedInput };
          current = withThreadedInput(payload, threaded);
        }
      }
      return { ...mergeOutcomes(outcomes), runs, failedRuns };
    },

    emitDetached(event, payload, ctx = {}) {
      if (event === 'sessionStart') sessions.clear(ctx.conversationId ?? DEFAULT_CONVERSATION);
      const statuses: DispatchStatus[] = [];
      for (const hook of hooksFor(event)) {
        if (plan(hook, payload, ctx) === null) continue;
        statuses.push(dispatchDetached(hook, payload, ctx, {}));
      }
      return statuses;
    },

    clearSession: (conversationId) => sessions.clear(conversationId),
    abortThread: (threadId) => dispatcher.abortThread(threadId),
    whenIdle: (threadId) => dispatcher.whenIdle(threadId),
  };
}
