import type { HookContext } from './events.ts';
import type { CommandHook } from './hook.ts';
import type { Interpretation } from './internal/interpretation.ts';
import type { AsyncOutcome, BlockingOutcome, HookRunResult } from './outcome.ts';
import type { RunDecision, RunRecord } from './records.ts';
import type { HookSpawnResult } from './spawn.ts';

// The pure pieces of a run: its decision summary, its record, and input threading.

/** What a run decided, as a record keeps it (sizes, not texts). */
export function summarize(outcome: BlockingOutcome | AsyncOutcome | null, extra: RunDecision): RunDecision {
  const d: RunDecision = {};
  if (outcome !== null) {
    const o: BlockingOutcome & AsyncOutcome = outcome;
    if (o.decision !== undefined) d.permission = o.decision;
    if (o.haltRun !== undefined) d.haltRun = true;
    if (o.updatedInput !== undefined) d.updatedInput = true;
    if (o.injectContext !== undefined) d.injectContextChars = o.injectContext.length;
    if (o.agentMessage !== undefined) d.agentMessageChars = o.agentMessage.length;
    if (o.userMessage !== undefined) d.userMessageChars = o.userMessage.length;
    if (o.queueMessage !== undefined) d.queuedMessageChars = o.queueMessage.text.length;
  }
  return { ...d, ...extra };
}

/** The payload with a previous hook's `updatedInput` merged into its `input`. */
export function withThreadedInput<P>(payload: P, merged: Record<string, unknown>): P {
  if (typeof payload !== 'object' || payload === null || !('input' in payload)) return payload;
  const input = payload.input;
  if (typeof input !== 'object' || input === null) return payload;
  return { ...payload, input: { ...input, ...merged } };
}

/** The record of one spawned run. */
export function buildRecord(
  hook: CommandHook,
  ctx: HookContext,
  spawn: HookSpawnResult,
  interp: Interpretation,
  result: HookRunResult,
  decision: RunDecision,
): RunRecord {
  return {
    kind: 'run',
    event: hook.wireEvent,
    canonicalEvent: hook.event,
    dialect: hook.dialect,
    hookId: hook.id,
    command: hook.command,
    ...(ctx.conversationId !== undefined ? { conversationId: ctx.conversationId } : {}),
    startedAt: spawn.startedAt,
    durationMs: spawn.durationMs,
    timeoutMs: spawn.timeoutMs,
    stdin: spawn.stdin,
    stdout: spawn.stdout,
    stderr: spawn.stderr,
    stdoutTruncated: spawn.stdoutTruncated,
    stderrTruncated: spawn.stderrTruncated,
    exitCode: spawn.exitCode,
    signal: spawn.signal,
    timedOut: spawn.timedOut,
    aborted: spawn.aborted,
    ...(spawn.spawnError !== undefined ? { spawnError: spawn.spawnError } : {}),
    parseOk: interp.parseOk,
    failed: result.failed,
    ...(result.failureMode !== undefined ? { failureMode: result.failureMode } : {}),
    ...(interp.runtimeError !== undefined ? { runtimeError: interp.runtimeError } : {}),
    sandboxed: spawn.sandboxed,
    sandboxViolations: spawn.sandboxViolations,
    decision,
  };
}
