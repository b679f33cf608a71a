import { getAgent, launcherEnvFor, protocolLineFor } from '../agents/registry.ts';
import { HookTemplatesError } from '../errors.ts';
import { posixGuarded, posixReadable, runtimeHome } from './posix.ts';
import { encodedPowerShell } from './powershell.ts';
import { LAUNCHER_FORMS, type LauncherForm, type LauncherSpec } from './spec.ts';
import { cmdFastPath, windowsDirect } from './windows.ts';

/** Input of {@link launcherCommand}. */
export interface LauncherRequest {
  agent: string;
  platform: 'posix' | 'windows';
  /** Script (or Windows wrapper) path the launcher starts. */
  script: string;
  event?: string;
  /** Override the agent's default form. */
  form?: LauncherForm;
  gitBash?: boolean;
  systemRoot?: string;
  /** Per-event env; default the agent's (Windows wrappers set their own, pass `{}`). */
  env?: Readonly<Record<string, string>>;
}

/** A built launcher command. */
export interface LauncherResult {
  command: string;
  form: LauncherForm;
  event: string | null;
}

/** The form an agent uses by default on `platform`. */
export function defaultLauncherForm(agent: string, platform: 'posix' | 'windows', gitBash = false): LauncherForm {
  const d = getAgent(agent);
  if (platform === 'posix') return d.posixLauncher;
  if (d.windowsLauncher === 'claude') return gitBash ? 'windowsDirect' : 'encodedPowerShell';
  return d.windowsLauncher;
}

/**
 * The managed command an agent config runs for one event.
 *
 * @example
 * launcherCommand({ agent: 'cursor', platform: 'posix', script: '/h/.orca/agent-hooks/cursor-hook.sh', event: 'preToolUse' }).command
 */
export function launcherCommand(req: LauncherRequest): LauncherResult {
  const d = getAgent(req.agent);
  const form = req.form ?? defaultLauncherForm(d.id, req.platform, req.gitBash);
  if (!(LAUNCHER_FORMS as readonly string[]).includes(form)) {
    throw new HookTemplatesError(
      'ORCA_HOOKS_UNSUPPORTED_TARGET',
      `unknown launcher form ${String(form).slice(0, 200)}`,
    );
  }
  const spec: LauncherSpec = {
    agent: d.id,
    ...(req.event !== undefined ? { event: req.event } : {}),
    script: req.script,
    env: req.env ?? launcherEnvFor(d, req.event),
    fallbackStdout: protocolLineFor(d, req.event),
    check: form === 'posixReadable' ? 'r' : 'rx',
  };
  const command = ((): string => {
    switch (form) {
      case 'posixGuarded':
        return posixGuarded(spec);
      case 'posixReadable':
        return posixReadable(spec);
      case 'runtimeHome':
        return runtimeHome({
          base: `${d.scriptStem}-hook`,
          fallbackStdout: spec.fallbackStdout,
          ...(req.systemRoot !== undefined ? { systemRoot: req.systemRoot } : {}),
        });
      case 'encodedPowerShell':
        return encodedPowerShell(spec, req.systemRoot);
      case 'cmdFastPath':
        return cmdFastPath(spec, req.systemRoot);
      case 'windowsDirect':
        return windowsDirect(spec, req.systemRoot);
    }
  })();
  return { command, form, event: req.event ?? null };
}
