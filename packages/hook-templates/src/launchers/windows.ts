import { ANTIGRAVITY_WRAPPERS } from '@orca/shared/agents';
import { HookTemplatesError } from '../errors.ts';
import { encodedPowerShell } from './powershell.ts';
import { assertSafePath, type LauncherSpec } from './spec.ts';

/** A path that is one token in both cmd and PowerShell (#8430/#8645). */
export const CMD_FAST_PATH_RE = /^[A-Za-z0-9_.:\\~-]+$/;
/** A drive path Claude's Git Bash runner may execute directly (spaces allowed inside quotes). */
export const WINDOWS_DIRECT_RE = /^[A-Za-z]:[A-Za-z0-9_.:\\~ -]+$/;

/**
 * The bare script path when it is one safe token, else {@link encodedPowerShell}. A missing
 * script is then a launch failure (accepted for these agents).
 *
 * @example
 * cmdFastPath({ agent: 'codex', script: 'C:\\Users\\u\\.orca\\agent-hooks\\codex-hook.cmd', env: {}, fallbackStdout: '{}', check: 'r' })
 */
export function cmdFastPath(spec: LauncherSpec, systemRoot?: string): string {
  assertSafePath(spec.script);
  if (Object.keys(spec.env).length === 0 && CMD_FAST_PATH_RE.test(spec.script)) return spec.script;
  return encodedPowerShell(spec, systemRoot);
}

/**
 * Claude under Git Bash: `"C:/…/claude-hook.cmd"` run directly (no `cmd /c`, `2>nul`, `||`:
 * #19187/#21514) when the path is a plain drive path; else {@link encodedPowerShell}.
 */
export function windowsDirect(spec: LauncherSpec, systemRoot?: string): string {
  assertSafePath(spec.script);
  if (Object.keys(spec.env).length === 0 && WINDOWS_DIRECT_RE.test(spec.script))
    return `"${spec.script.replaceAll('\\', '/')}"`;
  return encodedPowerShell(spec, systemRoot);
}

/** Antigravity per-event wrapper stems and their vendor event names (the shared agent catalogue's). */
export { ANTIGRAVITY_WRAPPERS };

const GUARD = [
  'if "%ORCA_AGENT_HOOK_PORT%"=="" exit /b 0',
  'if "%ORCA_AGENT_HOOK_TOKEN%"=="" exit /b 0',
  'if "%ORCA_PANE_KEY%"=="" exit /b 0',
];

function wrapper(target: string, env: Readonly<Record<string, string>>, fallback: string | null): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(target))
    throw new HookTemplatesError('ORCA_HOOKS_UNSAFE_PATH', 'wrapper target must be a plain file name');
  const lines = ['@echo off', 'setlocal DisableDelayedExpansion'];
  for (const [k, v] of Object.entries(env)) {
    if (!/^[A-Za-z0-9_]+$/.test(k) || !/^[A-Za-z0-9_-]+$/.test(v))
      throw new HookTemplatesError('ORCA_HOOKS_UNSAFE_PATH', 'wrapper env must be plain');
    lines.push(`set "${k}=${v}"`);
  }
  lines.push(
    `if not exist "%~dp0${target}" goto :orca_missing`,
    `if exist "%~dp0${target}\\*" goto :orca_missing`,
    `call "%~dp0${target}"`,
    'exit /b %ERRORLEVEL%',
    ':orca_missing',
  );
  if (fallback !== null) {
    if (!/^[^&|<>^%!()\r\n]+$/.test(fallback))
      throw new HookTemplatesError('ORCA_HOOKS_UNSAFE_PATH', 'fallback line not printable by echo');
    lines.push(`echo ${fallback}`);
  }
  lines.push(...GUARD, '"%SystemRoot%\\System32\\more.com" >nul 2>nul', 'exit /b 0');
  return `${lines.join('\r\n')}\r\n`;
}

/** `claude-hook.cmd`: calls `claude-hook-impl.cmd` beside it and returns its errorlevel, else `{}`, guards, drain. */
export function claudeWindowsWrapper(stem = 'claude'): string {
  return wrapper(`${stem}-hook-impl.cmd`, {}, '{}');
}

/**
 * A per-event wrapper (`<stem>.cmd`): sets `env` and calls `<scriptStem>-hook.cmd` beside it, else
 * prints `fallback`, guards, drains. For agents whose config cannot pass env to a handler.
 */
export function eventWindowsWrapper(
  scriptStem: string,
  env: Readonly<Record<string, string>>,
  fallback: string | null,
): string {
  return wrapper(`${scriptStem}-hook.cmd`, env, fallback);
}

/** `antigravity-<event>.cmd`: sets `ORCA_ANTIGRAVITY_EVENT` and calls `antigravity-hook.cmd`, else the gate JSON, guards, drain. */
export function antigravityWindowsWrapper(event: keyof typeof ANTIGRAVITY_WRAPPERS, fallback: string | null): string {
  return eventWindowsWrapper('antigravity', { ORCA_ANTIGRAVITY_EVENT: event }, fallback);
}
