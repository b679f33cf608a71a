import type { DispatchStatus } from './dispatcher.ts';
import type { EnvMap } from './env.ts';
import type { BlockingEvent, CanonicalEvent, EventPayloads, HookContext } from './events.ts';
import type { CommandHook } from './hook.ts';
import type { AsyncOutcome, HookRunResult, MergedOutcome } from './outcome.ts';
import type { HookRecord } from './records.ts';
import type { SandboxRuntime } from './sandbox.ts';
import type { SpawnFunction } from './spawn.ts';

/** `vendor` keeps each vendor's default (mostly fail-open); `strict` fails every hook closed. */
export type FailurePolicy = 'vendor' | 'strict';

/** A detached hook's outcome, as handed to `onAsyncOutcome`. */
export interface AsyncOutcomeEvent {
  event: CanonicalEvent;
  hookId: string;
  conversationId?: string;
  outcome: AsyncOutcome;
}

/** A hook failure, reported once per hook per conversation. */
export interface HookRuntimeErrorEvent {
  event: CanonicalEvent;
  hookId: string;
  conversationId?: string;
  message: string;
}

/** Options of {@link createCommandHookRunner}. */
export interface CommandHookRunnerOptions {
  /** The hooks, or a function returning the current set (re-read on every emit). */
  hooks: readonly CommandHook[] | (() => readonly CommandHook[]);
  /** Sink of every run and drop record; a throwing sink goes to `onError`. */
  record?: (record: HookRecord) => void;
  failurePolicy?: FailurePolicy;
  sandbox?: SandboxRuntime;
  /** Env the children inherit (default `process.env`, read per call). */
  baseEnv?: EnvMap;
  /** Credential scrubber applied to `baseEnv` (default {@link scrubLlmCredentials}). */
  scrubEnv?: (env: EnvMap) => Readonly<Record<string, string | undefined>>;
  /** Epoch-ms clock for records. */
  clock?: () => number;
  spawn?: SpawnFunction;
  platform?: NodeJS.Platform;
  onAsyncOutcome?: (event: AsyncOutcomeEvent) => void;
  onRuntimeError?: (event: HookRuntimeErrorEvent) => void;
  onError?: (error: unknown) => void;
}

/** The runner's public surface. */
export interface CommandHookRunner {
  /** Run one hook; never rejects. Abstains (`{outcome:null, failed:false}`) without spawning when it does not apply. */
  run<E extends CanonicalEvent>(
    hook: CommandHook & { event: E },
    payload: EventPayloads[E],
    ctx?: HookContext,
  ): Promise<HookRunResult>;
  /** Run every matching hook of a blocking event sequentially in order and merge. */
  emit<E extends BlockingEvent>(event: E, payload: EventPayloads[E], ctx?: HookContext): Promise<MergedOutcome>;
  /** Queue every matching hook of an event on its thread; one status per queued hook. */
  emitDetached<E extends CanonicalEvent>(event: E, payload: EventPayloads[E], ctx?: HookContext): DispatchStatus[];
  /** Forget one conversation's session env. */
  clearSession(conversationId: string): void;
  /** Drop a thread's pending detached hooks and later dispatches; running ones finish. */
  abortThread(threadId: string): void;
  /** Resolves when no detached hook runs or waits (on one thread, or anywhere). */
  whenIdle(threadId?: string): Promise<void>;
}
