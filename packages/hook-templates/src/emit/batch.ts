import type { ExtraField, ProtocolOutput } from '../agents/descriptor.ts';
import { CURL_CONNECT_TIMEOUT_S, ENDPOINT_PORT_MAX_DIGITS, HOOK_TOKEN_CHARS } from '../constants.ts';
import { HookTemplatesError } from '../errors.ts';
import { ENV_NAME_RE } from '../internal/sh-quote.ts';
import type { Plan, Step } from '../plan/types.ts';
import { assertValidPlan } from '../plan/validate.ts';
import { FORM_FIELDS } from './posix.ts';

/** Label of the one drain epilogue every batch script ends with. */
export const BATCH_DRAIN_LABEL = ':orca_agent_hook_drain_stdin';
/** System curl, qualified: Windows searches the CWD before PATH. */
export const BATCH_CURL = '"%SystemRoot%\\System32\\curl.exe"';
/** System more, qualified: the batch drain. */
export const BATCH_MORE = '"%SystemRoot%\\System32\\more.com"';

/**
 * `1<PORT>` exceeds this iff PORT has more than 5 digits (PORT is digits-only when compared; the
 * leading 1 avoids cmd's octal reading of a leading 0). Why not `%PORT:~5,1%`: substrings are
 * unreliable under wine's cmd and unsafe on undefined variables in blocks (#11782).
 */
const PORT_LIMIT = `1${'9'.repeat(ENDPOINT_PORT_MAX_DIGITS)}`;

const VALUE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:/-';
const ECHO_SAFE_RE = /^[^&|<>^%!()\r\n]+$/;

function envName(name: string): string {
  if (!ENV_NAME_RE.test(name))
    throw new HookTemplatesError('ORCA_HOOKS_PLAN_INVALID', 'invalid environment variable name');
  return name;
}

function echoLine(line: string): string {
  if (!ECHO_SAFE_RE.test(line)) {
    throw new HookTemplatesError(
      'ORCA_HOOKS_PLAN_INVALID',
      `protocol line not printable by batch echo: ${line.slice(0, 200)}`,
    );
  }
  return `echo ${line}`;
}

function protocolLines(out: ProtocolOutput): string[] {
  if ('fixed' in out) return [echoLine(out.fixed)];
  if ('fromEnv' in out) {
    const v = envName(out.fromEnv);
    return [`if defined ${v} (echo %${v}%) else (${echoLine(out.default)})`];
  }
  const v = envName(out.byEnv);
  const entries = Object.entries(out.table);
  const lines = entries.map(([event], i) => {
    if (!/^[A-Za-z0-9_-]+$/.test(event)) throw new HookTemplatesError('ORCA_HOOKS_PLAN_INVALID', 'invalid event name');
    return `if "%${v}%"=="${event}" goto :orca_protocol_${i}`;
  });
  lines.push(echoLine(out.default), 'goto :orca_protocol_done');
  entries.forEach(([, line], i) => {
    lines.push(`:orca_protocol_${i}`, echoLine(line), 'goto :orca_protocol_done');
  });
  lines.push(':orca_protocol_done');
  return lines;
}

const KEYS = ['PORT', 'TOKEN', 'ENV', 'VERSION', 'TRANSPORT'] as const;

/**
 * §5 endpoint parse with cmd builtins only. File bytes reach the script only through FOR
 * variables (expanded after cmd's special-character phase) and through `%orca_v:"=#%`, whose
 * replacement removes every quote before the value is ever parsed; a value is then accepted only
 * if it is one run of allowed characters. Nothing is `call`ed with file bytes as arguments and no
 * FOR set nests another FOR's variable (wine's cmd does not expand those).
 */
function endpointLines(): string[] {
  const keyLines = KEYS.flatMap((k) => [
    `  if "%%A"=="ORCA_AGENT_HOOK_${k}" set "orca_k=${k}"`,
    `  if "%%A"=="set ORCA_AGENT_HOOK_${k}" set "orca_k=${k}"`,
  ]);
  return [
    ...KEYS.map((k) => `set "orca_ep_${k}="`),
    'if not defined ORCA_AGENT_HOOK_ENDPOINT goto :orca_endpoint_done',
    'if not exist "%ORCA_AGENT_HOOK_ENDPOINT%" goto :orca_endpoint_done',
    'if exist "%ORCA_AGENT_HOOK_ENDPOINT%\\*" goto :orca_endpoint_done',
    'for /f "usebackq tokens=1,* delims==" %%A in ("%ORCA_AGENT_HOOK_ENDPOINT%") do (',
    '  set "orca_k="',
    ...keyLines,
    '  set "orca_v=%%B"',
    '  call :orca_endpoint_line',
    ')',
    'if not defined orca_ep_PORT goto :orca_endpoint_done',
    'for /f "delims=0123456789" %%D in ("%orca_ep_PORT%") do set "orca_ep_PORT="',
    'if not defined orca_ep_PORT goto :orca_endpoint_done',
    `if 1%orca_ep_PORT% GTR ${PORT_LIMIT} goto :orca_endpoint_done`,
    'if not defined orca_ep_TOKEN goto :orca_endpoint_done',
    'set "ORCA_AGENT_HOOK_PORT=%orca_ep_PORT%"',
    'set "ORCA_AGENT_HOOK_TOKEN=%orca_ep_TOKEN%"',
    'if defined orca_ep_ENV set "ORCA_AGENT_HOOK_ENV=%orca_ep_ENV%"',
    'if defined orca_ep_VERSION set "ORCA_AGENT_HOOK_VERSION=%orca_ep_VERSION%"',
    ':orca_endpoint_done',
  ];
}

/** The per-line subroutine of {@link endpointLines} (placed after `exit /b 0`). */
function endpointSubroutine(): string[] {
  return [
    ':orca_endpoint_line',
    'if not defined orca_k exit /b 0',
    'if not defined orca_v exit /b 0',
    'set "orca_v=%orca_v:"=#%"',
    `for /f "tokens=2 delims=${VALUE_CHARS}" %%X in ("#.%orca_v%") do exit /b 0`,
    'set "orca_ep_%orca_k%=%orca_v%"',
    'exit /b 0',
  ];
}

/**
 * Exit unread unless ORCA_AGENT_HOOK_TOKEN is one run of {@link HOOK_TOKEN_CHARS}, before any
 * line expands the raw token (a `"` with `&` in it would run a command; a LF truncates the line,
 * leaving curl with a partial header). The copy replaces `"` in the same expansion, so the line
 * stays quoted; a LF that truncates it also drops the `& set "orca_tok_ok=1"` sentinel (fail
 * closed); the value is then checked like an endpoint value (FOR tokens over the allowed
 * characters). Why not `!TOKEN:a=!`: wine's cmd does not substitute in delayed expansion. cmd
 * strips a CR during expansion, here and on the curl line alike, so a lone CR cannot reach curl.
 */
function tokenGuardLines(): string[] {
  return [
    'if not defined ORCA_AGENT_HOOK_TOKEN exit /b 0',
    'set "orca_tok_ok="',
    'set "orca_tok=%ORCA_AGENT_HOOK_TOKEN:"=#%" & set "orca_tok_ok=1"',
    'if not defined orca_tok_ok exit /b 0',
    `for /f "tokens=2 delims=${HOOK_TOKEN_CHARS}" %%X in ("#.%orca_tok%") do exit /b 0`,
  ];
}

function guardLines(): string[] {
  return [
    ...tokenGuardLines(),
    'if "%ORCA_AGENT_HOOK_PORT%"=="" exit /b 0',
    'if "%ORCA_AGENT_HOOK_TOKEN%"=="" exit /b 0',
    'if "%ORCA_PANE_KEY%"=="" exit /b 0',
    'for /f "delims=0123456789" %%D in ("%ORCA_AGENT_HOOK_PORT%") do exit /b 0',
    `if 1%ORCA_AGENT_HOOK_PORT% GTR ${PORT_LIMIT} exit /b 0`,
  ];
}

/**
 * Copies of extra fields: `"` stripped, `.` appended after a trailing `\` (it would escape curl's
 * closing quote). Uses only `%VAR:a=b%` replacement, never `%VAR:~n,m%` (see {@link PORT_LIMIT});
 * so `maxLen` is not enforced in batch (cmd's 8191-char line bounds it).
 */
function extraLines(extras: readonly ExtraField[]): string[] {
  return extras.flatMap((x, i) => {
    const v = envName(x.env);
    const name = `orca_extra_${i}`;
    const done = `:orca_extra_${i}_done`;
    return [
      `set "${name}="`,
      `if not defined ${v} goto ${done}`,
      `set "${name}=%${v}:"=%"`,
      `if not defined ${name} goto ${done}`,
      `set "orca_tail=%${name}%*"`,
      `if not "%orca_tail:\\*=%"=="%orca_tail%" set "${name}=%${name}%."`,
      done,
    ];
  });
}

function postLines(step: Extract<Step, { op: 'post' }>): string[] {
  const parts = [
    `${BATCH_CURL} -q -f -sS -X POST "http://127.0.0.1:%ORCA_AGENT_HOOK_PORT%/hook/${step.source}"`,
    `--connect-timeout ${CURL_CONNECT_TIMEOUT_S} --max-time ${step.maxTimeS} --noproxy 127.0.0.1`,
    '-H "Content-Type: application/x-www-form-urlencoded"',
    '-H "X-Orca-Agent-Hook-Token: %ORCA_AGENT_HOOK_TOKEN%"',
    ...FORM_FIELDS.map(([field, env]) => `--data-urlencode "${field}=%${env}%"`),
    ...step.extras.map((x, i) => `--data-urlencode "${x.field}=%orca_extra_${i}%"`),
    '--data-urlencode "payload@-" >nul 2>nul',
  ];
  return [...extraLines(step.extras), parts.join(' ')];
}

/**
 * The Windows batch script of a plan (`.cmd`, CRLF including the last line, no PowerShell).
 * Batch cannot see emptiness or JSON boundaries: every capture policy streams stdin into curl.
 *
 * @example
 * const text = emitBatch(planFor('codex', { os: 'windows', dialect: 'batch' }));
 */
export function emitBatch(plan: Plan): string {
  assertValidPlan(plan);
  if (plan.target.dialect !== 'batch') {
    throw new HookTemplatesError(
      'ORCA_HOOKS_UNSUPPORTED_TARGET',
      `emitBatch needs dialect batch, got ${plan.target.dialect}`,
    );
  }
  const out = [
    '@echo off',
    'setlocal DisableDelayedExpansion',
    `rem Orca agent hook for ${plan.agent}; generated by @orca/hook-templates, do not edit.`,
    'rem Guards exit before stdin is touched; skips after capture drain through one epilogue.',
  ];
  let captured = false;
  for (const step of plan.steps) {
    switch (step.op) {
      case 'protocolOutput':
        out.push(...protocolLines(step.out));
        break;
      case 'refreshEndpoint':
        out.push(...endpointLines());
        break;
      case 'guardEnv':
        out.push(...guardLines());
        break;
      case 'skipIf':
        out.push(`if defined ${envName(step.env)} ${captured ? `goto ${BATCH_DRAIN_LABEL}` : 'exit /b 0'}`);
        break;
      case 'captureStdin':
        captured = true;
        break;
      case 'post':
        out.push(...postLines(step));
        break;
      case 'exit':
        out.push('exit /b 0');
        break;
      default:
        throw new HookTemplatesError('ORCA_HOOKS_UNSUPPORTED_TARGET', `${step.op} is not supported in batch`);
    }
  }
  if (plan.steps.some((s) => s.op === 'refreshEndpoint')) out.push(...endpointSubroutine());
  out.push(BATCH_DRAIN_LABEL, `${BATCH_MORE} >nul 2>nul`, 'exit /b 0');
  return `${out.join('\r\n')}\r\n`;
}
