import { HookTemplatesError } from '../errors.ts';
import { ENV_NAME_RE } from '../internal/sh-quote.ts';
import { assertSafePath, type LauncherSpec, WINDOWS_GUARD_ENV } from './spec.ts';

/** Default `%SystemRoot%`. */
export const DEFAULT_SYSTEM_ROOT = 'C:\\Windows';

/** `'…'` PowerShell verbatim string. */
function psQuote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** `powershell.exe` under `systemRoot`, with forward slashes (no `%`, `^` or space). */
export function powershellExe(systemRoot: string = DEFAULT_SYSTEM_ROOT): string {
  if (!/^[A-Za-z]:[\\/][A-Za-z0-9_.\\/-]*$/.test(systemRoot)) {
    throw new HookTemplatesError(
      'ORCA_HOOKS_UNSAFE_PATH',
      'systemRoot must be a drive path without spaces or metacharacters',
    );
  }
  return `${systemRoot.replaceAll('\\', '/').replace(/\/$/, '')}/System32/WindowsPowerShell/v1.0/powershell.exe`;
}

/** UTF-16LE base64 of a PowerShell script, as `-EncodedCommand` wants it. */
export function encodePowerShell(script: string): string {
  return Buffer.from(script, 'utf16le').toString('base64');
}

/** The encoded-PowerShell command line running `startLines` then the decline branch. */
export function encodedPowerShellFor(
  startLines: readonly string[],
  fallbackStdout: string | null,
  systemRoot?: string,
  requireEnv: readonly string[] = WINDOWS_GUARD_ENV,
): string {
  for (const k of requireEnv)
    if (!ENV_NAME_RE.test(k)) throw new HookTemplatesError('ORCA_HOOKS_UNSAFE_PATH', 'invalid env name');
  const guard = `if (${requireEnv.map((k) => `-not $env:${k}`).join(' -or ')}) { exit 0 }`;
  const body = [
    "$ProgressPreference='SilentlyContinue'",
    ...startLines,
    ...(fallbackStdout !== null ? [`Write-Output ${psQuote(fallbackStdout)}`] : []),
    ...(requireEnv.length > 0 ? [guard] : []),
    '[Console]::In.ReadToEnd() | Out-Null',
    'exit 0',
  ].join('; ');
  return `${powershellExe(systemRoot)} -NoProfile -ExecutionPolicy Bypass -WindowStyle Hidden -EncodedCommand ${encodePowerShell(body)}`;
}

/**
 * Windows default launcher: encoded PowerShell that sets the per-event env, runs the script if it
 * is a file (propagating `$LASTEXITCODE`), else prints the fallback line, exits 0 unread when the
 * Orca env is missing, and otherwise drains stdin.
 *
 * @example
 * encodedPowerShell({ agent: 'copilot', script: 'C:\\Users\\u\\.orca\\agent-hooks\\copilot-hook.ps1', env: {}, fallbackStdout: '{}', check: 'r' })
 */
export function encodedPowerShell(spec: LauncherSpec, systemRoot?: string): string {
  assertSafePath(spec.script);
  const p = psQuote(spec.script);
  const env = Object.entries(spec.env).map(([k, v]) => {
    if (!ENV_NAME_RE.test(k)) throw new HookTemplatesError('ORCA_HOOKS_UNSAFE_PATH', 'invalid env name');
    return `$env:${k}=${psQuote(v)}`;
  });
  return encodedPowerShellFor(
    [...env, `if (Test-Path -LiteralPath ${p} -PathType Leaf) { & ${p}; exit $LASTEXITCODE }`],
    spec.fallbackStdout,
    systemRoot,
    spec.requireEnv ?? WINDOWS_GUARD_ENV,
  );
}

/**
 * Decodes the UTF-16LE body of a `-EncodedCommand` (also `-enc`, `-e`) in `command`, or `null`.
 * Never throws on outside bytes.
 */
export function decodeEncodedCommand(command: string): string | null {
  const m = /(?:^|\s)-(?:EncodedCommand|enc|e|ec)\s+([A-Za-z0-9+/=]+)/i.exec(command);
  const b64 = m?.[1];
  if (b64 === undefined || b64.length % 4 !== 0) return null;
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length % 2 !== 0) return null;
  return bytes.toString('utf16le');
}
