import { homedir } from 'node:os';
import { type CommandHook, createCommandHookRunner, discoverHooks, type HookRecord } from '@orca/command-hooks';
import { STOP_DISCOVERY_CACHE_MAX, STOP_DISCOVERY_REUSE_MS } from '../constants.ts';
import type { Store } from '../store/store.ts';

/** The pane facts command hooks need. */
export interface CommandHookPane {
  readonly handle: string;
  readonly paneKey: string;
  readonly cwd: string;
}

/** Result of the `beforeSubmitPrompt` gate. */
export type PromptGate = { blocked: false; runs: number } | { blocked: true; message: string; runs: number };

/** The host's use of `@orca/command-hooks`: user hooks at host events, every run recorded. */
export interface HostCommandHooks {
  /** Runs `beforeSubmitPrompt` hooks found from the pane's cwd; deny/halt blocks the injection. */
  beforeSubmitPrompt(pane: CommandHookPane, prompt: string): Promise<PromptGate>;
  /** Queues `stop` hooks (detached) when a pane's verdict goes from working to idle. */
  stop(pane: CommandHookPane): void;
  /** Resolves when every detached run finished (tests, shutdown). */
  whenIdle(): Promise<void>;
}

/**
 * Wires `@orca/command-hooks` for the host: discovery from the pane's cwd plus the user's home,
 * `conversationId` = the pane key, every run recorded in the store.
 *
 * @example
 * const hooks = createHostCommandHooks({ store });
 * const gate = await hooks.beforeSubmitPrompt(pane, 'fix the bug');
 */
export function createHostCommandHooks(opts: {
  store: Store;
  home?: string;
  now?: () => number;
  onError?: (error: unknown) => void;
}): HostCommandHooks {
  const home = opts.home ?? homedir();
  const now = opts.now ?? Date.now;
  const pendingRuns = new Set<Promise<void>>();
  /** Pane key (the conversation and thread id of every run) → handle, for the store. */
  const handles = new Map<string, string>();
  let hooksOfThisEmit: readonly CommandHook[] = [];
  // Why: one runner per host, so its per-thread limits (running, pending) and per-conversation
  // session env hold across events (issue 12). The hooks differ per pane cwd; the runner reads
  // them synchronously at the start of each emit, so they are set right before and cleared after.
  const runner = createCommandHookRunner({
    hooks: () => hooksOfThisEmit,
    record: (record: HookRecord) => {
      const key = record.kind === 'run' ? record.conversationId : record.threadId;
      const handle = key === undefined ? null : (handles.get(key) ?? null);
      opts.store.insertCommandHookRun({ handle, event: record.event, at: now(), record });
    },
    clock: now,
    ...(opts.onError ? { onError: opts.onError } : {}),
  });
  // Why: a fleet whose verdicts flip often fires `stop` many times a second, and each discovery is
  // five realpath + read pairs; `stop` reuses one discovery per cwd for a moment. The gate
  // (`beforeSubmitPrompt`) always reads afresh: a deny hook added a moment ago must hold.
  const stopDiscoveries = new Map<string, { at: number; hooks: Promise<readonly CommandHook[]> }>();
  const hooksForStop = (cwd: string): Promise<readonly CommandHook[]> => {
    const at = now();
    const hit = stopDiscoveries.get(cwd);
    if (hit && at - hit.at < STOP_DISCOVERY_REUSE_MS) return hit.hooks;
    if (stopDiscoveries.size >= STOP_DISCOVERY_CACHE_MAX) {
      for (const [key, entry] of stopDiscoveries)
        if (at - entry.at >= STOP_DISCOVERY_REUSE_MS) stopDiscoveries.delete(key);
      if (stopDiscoveries.size >= STOP_DISCOVERY_CACHE_MAX) stopDiscoveries.clear();
    }
    const hooks = discoverHooks(cwd, { home }).then((d) => d.hooks);
    stopDiscoveries.set(cwd, { at, hooks });
    hooks.catch(() => stopDiscoveries.delete(cwd));
    return hooks;
  };
  const withHooks = <T>(pane: CommandHookPane, hooks: readonly CommandHook[], start: () => T): T => {
    handles.set(pane.paneKey, pane.handle);
    hooksOfThisEmit = hooks;
    try {
      return start();
    } finally {
      hooksOfThisEmit = [];
    }
  };
  return {
    async beforeSubmitPrompt(pane, prompt) {
      const { hooks } = await discoverHooks(pane.cwd, { home });
      if (hooks.length === 0) return { blocked: false, runs: 0 };
      const merged = await withHooks(pane, hooks, () =>
        runner.emit('beforeSubmitPrompt', { prompt }, { conversationId: pane.paneKey }),
      );
      if (merged.decision === 'deny' || merged.haltRun) {
        const message = merged.haltRun?.reason ?? merged.agentMessage ?? merged.userMessage ?? 'blocked by a hook';
        return { blocked: true, message, runs: merged.runs };
      }
      return { blocked: false, runs: merged.runs };
    },
    stop(pane) {
      const run = (async () => {
        const hooks = await hooksForStop(pane.cwd);
        if (hooks.length === 0) return;
        withHooks(pane, hooks, () =>
          runner.emitDetached('stop', { status: 'completed', loopCount: 0 }, { conversationId: pane.paneKey }),
        );
        await runner.whenIdle(pane.paneKey);
      })().catch((error: unknown) => opts.onError?.(error));
      pendingRuns.add(run);
      void run.finally(() => pendingRuns.delete(run));
    },
    async whenIdle() {
      await Promise.all([...pendingRuns]);
      await runner.whenIdle();
    },
  };
}
