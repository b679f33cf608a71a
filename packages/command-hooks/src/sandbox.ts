/** What a sandbox runtime launches instead of the raw shell. */
export interface SandboxLaunch {
  file: string;
  args: string[];
  /** Replaces the child env when present. */
  env?: Record<string, string>;
}

/**
 * An injectable sandbox. `sandboxed = hook.sandbox !== false && enabled() === true`.
 * Signals come from the runner side only (never the hook's output, which a hook can forge).
 */
export interface SandboxRuntime {
  name: string;
  enabled(): boolean;
  prepare(request: { command: string; cwd: string; env: Record<string, string> }): Promise<SandboxLaunch>;
  /** Violations the runtime observed for one launch (0 when it cannot count). */
  violations(launch: SandboxLaunch): number | Promise<number>;
  release?(launch: SandboxLaunch): void | Promise<void>;
}

/**
 * A sandboxed run is blocked iff the wrapper failed to start, or it exited non-zero with
 * violations (exit 0 with violations is not a block). Returns the reasons, empty when not blocked.
 */
export function sandboxBlockReasons(run: {
  sandboxed: boolean;
  spawnError?: string;
  exitCode: number | null;
  violations: number;
}): string[] {
  if (!run.sandboxed) return [];
  if (run.spawnError !== undefined) return [`sandbox wrapper failed to start: ${run.spawnError}`];
  if (run.exitCode !== 0 && run.violations > 0) {
    return [`${run.violations} violation(s)`, run.exitCode === null ? 'killed' : `exit ${run.exitCode}`];
  }
  return [];
}
