import { getAgent } from '../agents/registry.ts';
import { isAgentId } from '../agents/sources.ts';
import { POSIX_STDIN_READER } from '../emit/posix.ts';
import { HookTemplatesError } from '../errors.ts';
import { ENV_NAME_RE, isEchoSafe } from '../internal/sh-quote.ts';
import { encodedPowerShellFor } from './powershell.ts';
import { assertSafePath, type LauncherSpec } from './spec.ts';

/**
 * Quotes a path for POSIX sh as one word: single quotes, `'` → `'\''`, and `$` → `'"\$"'` (Grok's
 * precheck rejects `$NAME` even inside single quotes).
 */
export function quoteLauncherPath(path: string): string {
  assertSafePath(path);
  return `'${path.replaceAll("'", `'\\''`).replaceAll('$', `'"\\$"'`).replaceAll('`', `'"\\\`"'`)}'`;
}

function quoteValue(value: string): string {
  if (/[\0\r\n]/.test(value))
    throw new HookTemplatesError('ORCA_HOOKS_UNSAFE_PATH', 'launcher env value contains NUL or a newline');
  return `'${value.replaceAll("'", `'\\''`).replaceAll('$', `'"\\$"'`).replaceAll('`', `'"\\\`"'`)}'`;
}

/** `K='v' ` prefixes for the script's own environment. */
export function envPrefix(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([k, v]) => {
      if (!ENV_NAME_RE.test(k)) throw new HookTemplatesError('ORCA_HOOKS_UNSAFE_PATH', 'invalid launcher env name');
      return `${k}=${quoteValue(v)} `;
    })
    .join('');
}

/** `echo`/printf of a protocol line, or nothing. */
export function fallbackPrint(line: string | null): string {
  if (line === null) return '';
  if (isEchoSafe(line)) return `echo ${quoteValue(line)}; `;
  return `command -p printf '%s\\n' ${quoteValue(line)}; `;
}

/** The POSIX drain of a declining launcher. */
export const POSIX_LAUNCHER_DRAIN = `${POSIX_STDIN_READER} >/dev/null || :`;

function guarded(spec: LauncherSpec, checks: readonly string[]): string {
  const q = quoteLauncherPath(spec.script);
  const test = checks.map((c) => `[ ${c} ${q} ]`).join(' && ');
  const body = `if ${test}; then ${envPrefix(spec.env)}/bin/sh ${q}; else ${fallbackPrint(spec.fallbackStdout)}${POSIX_LAUNCHER_DRAIN}; fi`;
  // Why: an agent that may hold stdin open outside Orca (Grok) exits unread with no pane key (C2 exception).
  return isAgentId(spec.agent) && getAgent(spec.agent).requiresPaneKey === true
    ? `[ -z "\${ORCA_PANE_KEY-}" ] || ${body}`
    : body;
}

/**
 * POSIX launcher requiring a regular, readable, executable script; else prints the script's
 * protocol line, drains stdin and exits 0. A started script's exit code propagates.
 *
 * @example
 * posixGuarded({ agent: 'codex', script: '/home/u/.orca/agent-hooks/codex-hook.sh', env: {}, fallbackStdout: '{}', check: 'rx' })
 */
export function posixGuarded(spec: LauncherSpec): string {
  return guarded(spec, ['-f', '-r', '-x']);
}

/** As {@link posixGuarded} but needs only a regular, readable file (WSL/UNC homes lose the exec bit). */
export function posixReadable(spec: LauncherSpec): string {
  return guarded(spec, ['-f', '-r']);
}

/** Options of {@link runtimeHome}. */
export interface RuntimeHomeOptions {
  /** Script base name, `^[A-Za-z0-9_-]+$` (e.g. `claude-hook`). */
  base: string;
  fallbackStdout: string | null;
  systemRoot?: string;
}

/**
 * Claude/OpenClaude launcher relative to the runtime `$HOME`: under Git Bash/Cygwin
 * (`uname -s` MINGW*, MSYS*, CYGWIN*; the spec's `OSTYPE` is bash-only) runs `<base>.cmd` directly (or through encoded PowerShell when
 * HOME has cmd metacharacters); elsewhere a guarded `/bin/sh "$HOME/.orca/agent-hooks/<base>.sh"`.
 */
export function runtimeHome(opts: RuntimeHomeOptions): string {
  if (!/^[A-Za-z0-9_-]+$/.test(opts.base))
    throw new HookTemplatesError('ORCA_HOOKS_UNSAFE_PATH', 'runtimeHome base must match ^[A-Za-z0-9_-]+$');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: POSIX shell parameter expansion, not a JS template
  const dir = '"${HOME-}"/.orca/agent-hooks';
  const sh = `${dir}/${opts.base}.sh`;
  const cmd = `${dir}/${opts.base}.cmd`;
  const print = fallbackPrint(opts.fallbackStdout);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: POSIX shell parameter expansion, not a JS template
  const guard = '[ -n "${ORCA_AGENT_HOOK_PORT-}" ] && [ -n "${ORCA_AGENT_HOOK_TOKEN-}" ] && [ -n "${ORCA_PANE_KEY-}" ]';
  const ps = encodedPowerShellFor(
    [
      "$p = [string]$env:HOME -replace '^/([A-Za-z])/', '$1:/'",
      `$p = $p + '/.orca/agent-hooks/${opts.base}.cmd'`,
      'if (Test-Path -LiteralPath $p -PathType Leaf) { & $p; exit $LASTEXITCODE }',
    ],
    opts.fallbackStdout,
    opts.systemRoot,
  );
  const windows = `if [ -n "\${HOME-}" ] && [ -f ${cmd} ]; then case \${HOME-} in *[\\&^\\(\\)\\;,=%!]*) ${ps} ;; *) ${cmd} ;; esac; else ${print || ': ; '}if ${guard}; then ${POSIX_LAUNCHER_DRAIN}; fi; fi`;
  const posix = `if [ -n "\${HOME-}" ] && [ -f ${sh} ] && [ -r ${sh} ] && [ -x ${sh} ]; then /bin/sh ${sh}; else ${print}${POSIX_LAUNCHER_DRAIN}; fi`;
  // Why: OSTYPE is a bash-only variable (SC3028); `uname -s` answers the same question in any sh.
  return `case $(uname -s 2>/dev/null) in MINGW*|MSYS*|CYGWIN*) ${windows} ;; *) ${posix} ;; esac`;
}
