import type { ExtraField, ProtocolOutput } from '../agents/descriptor.ts';
import { CURL_CONNECT_TIMEOUT_S, ENDPOINT_PORT_MAX_DIGITS } from '../constants.ts';
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

/** §5 endpoint parse with cmd builtins only: FOR variables (never `call`, never `%` on file bytes). */
function endpointLines(): string[] {
  const assign = KEYS.flatMap((k) => [
    `      if "%%A"=="ORCA_AGENT_HOOK_${k}" set "orca_ep_${k}=%%B"`,
    `      if "%%A"=="set ORCA_AGENT_HOOK_${k}" set "orca_ep_${k}=%%B"`,
  ]);
  return [
    ...KEYS.map((k) => `set "orca_ep_${k}="`),
    'if not defined ORCA_AGENT_HOOK_ENDPOINT goto :orca_endpoint_done',
    'if not exist "%ORCA_AGENT_HOOK_ENDPOINT%" goto :orca_endpoint_done',
    'if exist "%ORCA_AGENT_HOOK_ENDPOINT%\\*" goto :orca_endpoint_done',
    'for /f "usebackq tokens=1,* delims==" %%A in ("%ORCA_AGENT_HOOK_ENDPOINT%") do (',
    `  if not "%%B"=="" for /f "tokens=1,2 delims=${VALUE_CHARS}" %%X in ("#.%%B") do if "%%Y"=="" (`,
    ...assign,
    '  )',
    ')',
    'if not defined orca_ep_PORT goto :orca_endpoint_done',
    'for /f "delims=0123456789" %%D in ("%orca_ep_PORT%") do set "orca_ep_PORT="',
    'if not defined orca_ep_PORT goto :orca_endpoint_done',
    `if not "%orca_ep_PORT:~${ENDPOINT_PORT_MAX_DIGITS},1%"=="" goto :orca_endpoint_done`,
    'if not defined orca_ep_TOKEN goto :orca_endpoint_done',
    'set "ORCA_AGENT_HOOK_PORT=%orca_ep_PORT%"',
    'set "ORCA_AGENT_HOOK_TOKEN=%orca_ep_TOKEN%"',
    'if defined orca_ep_ENV set "ORCA_AGENT_HOOK_ENV=%orca_ep_ENV%"',
    'if defined orca_ep_VERSION set "ORCA_AGENT_HOOK_VERSION=%orca_ep_VERSION%"',
    ':orca_endpoint_done',
  ];
}

function guardLines(): string[] {
  return [
    'if "%ORCA_AGENT_HOOK_PORT%"=="" exit /b 0',
    'if "%ORCA_AGENT_HOOK_TOKEN%"=="" exit /b 0',
    'if "%ORCA_PANE_KEY%"=="" exit /b 0',
    'for /f "delims=0123456789" %%D in ("%ORCA_AGENT_HOOK_PORT%") do exit /b 0',
    `if not "%ORCA_AGENT_HOOK_PORT:~${ENDPOINT_PORT_MAX_DIGITS},1%"=="" exit /b 0`,
  ];
}

/** Copies of extra fields: `"` stripped, `.` after a trailing `\`, dropped past maxLen (outside blocks, #11782). */
function extraLines(extras: readonly ExtraField[]): string[] {
  return extras.flatMap((x, i) => {
    const v = envName(x.env);
    const name = `orca_extra_${i}`;
    const done = `:orca_extra_${i}_done`;
    const lines = [
      `set "${name}="`,
      `if not defined ${v} goto ${done}`,
      `set "${name}=%${v}:"=%"`,
      `if not defined ${name} goto ${done}`,
      `if "%${name}:~-1%"=="\\" set "${name}=%${name}%."`,
    ];
    if (x.maxLen !== undefined) lines.push(`if not "%${name}:~${x.maxLen},1%"=="" set "${name}="`);
    lines.push(done);
    return lines;
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
  out.push(BATCH_DRAIN_LABEL, `${BATCH_MORE} >nul 2>nul`, 'exit /b 0');
  return `${out.join('\r\n')}\r\n`;
}
