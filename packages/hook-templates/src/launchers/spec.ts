import type { AgentId } from '../agents/sources.ts';
import { HookTemplatesError } from '../errors.ts';

/** What a launcher builder needs (spec §6). */
export interface LauncherSpec {
  agent: AgentId;
  /** Vendor event name (per-event env and fallback line depend on it). */
  event?: string;
  /** Absolute script path (POSIX: `/…`; Windows: `C:\…`). */
  script: string;
  /** Per-event environment set for the script only. */
  env: Readonly<Record<string, string>>;
  /** The script's protocol line for this event, printed when the launcher declines. */
  fallbackStdout: string | null;
  /** Windows: env vars that must be set before the decline branch drains. */
  requireEnv?: readonly string[];
  /** POSIX check before starting the script: regular+readable+executable, or regular+readable. */
  check: 'rx' | 'r';
}

/** Launcher builder names. */
export const LAUNCHER_FORMS = [
  'posixGuarded',
  'posixReadable',
  'runtimeHome',
  'encodedPowerShell',
  'cmdFastPath',
  'windowsDirect',
] as const;

/** One launcher form. */
export type LauncherForm = (typeof LAUNCHER_FORMS)[number];

/** Throws `ORCA_HOOKS_UNSAFE_PATH` for NUL, CR or LF in a path. */
export function assertSafePath(path: string): void {
  if (path === '' || /[\0\r\n]/.test(path)) {
    throw new HookTemplatesError('ORCA_HOOKS_UNSAFE_PATH', 'script path is empty or contains NUL, CR or LF', {
      context: {
        path: JSON.stringify(path.slice(0, 200)),
      },
    });
  }
}

/** The default Windows guard env. */
export const WINDOWS_GUARD_ENV = ['ORCA_AGENT_HOOK_PORT', 'ORCA_AGENT_HOOK_TOKEN', 'ORCA_PANE_KEY'] as const;
