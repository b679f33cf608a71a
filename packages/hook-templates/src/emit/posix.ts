import type { ExtraField, ProtocolOutput } from '../agents/descriptor.ts';
import { CURL_CONNECT_TIMEOUT_S, ENDPOINT_PORT_MAX_DIGITS, HOOK_TOKEN_CHARS } from '../constants.ts';
import { HookTemplatesError } from '../errors.ts';
import { ENV_NAME_RE, isEchoSafe, shSingleQuote } from '../internal/sh-quote.ts';
import type { Plan, Step } from '../plan/types.ts';
import { assertValidPlan } from '../plan/validate.ts';
import {
  parseEndpointFunction,
  recoverEnvFunction,
  refreshEndpointFunction,
  spoolFunction,
  VALUE_CHARS,
} from './posix-functions.ts';
import { BOUNDED_READER_PY, BOUNDED_READER_PY_FLAGS } from './posix-reader.ts';

/** The C6 reader: immune to `PATH=''`, NixOS and a decoy `cat` first on PATH. */
export const POSIX_STDIN_READER = '{ command -p cat || cat; } 2>/dev/null';

/** Form fields posted before extras and the payload, in this order. */
export const FORM_FIELDS = [
  ['paneKey', 'ORCA_PANE_KEY'],
  ['tabId', 'ORCA_TAB_ID'],
  ['launchToken', 'ORCA_AGENT_LAUNCH_TOKEN'],
  ['worktreeId', 'ORCA_WORKTREE_ID'],
  ['env', 'ORCA_AGENT_HOOK_ENV'],
  ['version', 'ORCA_AGENT_HOOK_VERSION'],
] as const;

function checkEnvName(name: string): string {
  if (!ENV_NAME_RE.test(name)) {
    throw new HookTemplatesError(
      'ORCA_HOOKS_PLAN_INVALID',
      `invalid environment variable name ${JSON.stringify(name.slice(0, 200))}`,
      { context: { name: name.slice(0, 200) } },
    );
  }
  return name;
}

function printLine(line: string): string {
  // Why: mksh has no printf builtin, so under PATH='' only echo is sure to print.
  return isEchoSafe(line) ? `echo ${shSingleQuote(line)}` : `command -p printf '%s\\n' ${shSingleQuote(line)}`;
}

function protocolLines(out: ProtocolOutput): string[] {
  if ('fixed' in out) return [`${printLine(out.fixed)} 2>/dev/null`];
  if ('byEnv' in out) {
    const v = checkEnvName(out.byEnv);
    const arms = Object.entries(out.table).map(([k, line]) => `  ${shSingleQuote(k)}) ${printLine(line)} ;;`);
    return [`case \${${v}-} in`, ...arms, `  *) ${printLine(out.default)} ;;`, 'esac 2>/dev/null'];
  }
  const v = checkEnvName(out.fromEnv);
  return [
    `case \${${v}-} in`,
    `  '') ${printLine(out.default)} ;;`,
    `  -*|*\\\\*) command -p printf '%s\\n' "$${v}" ;;`,
    `  *) echo "$${v}" ;;`,
    'esac 2>/dev/null',
  ];
}

/**
 * Outside Orca (no endpoint file named, and PORT, TOKEN or PANE_KEY empty) nothing can be posted
 * or spooled, so the capture drains without buffering: stdin is still read to EOF exactly once.
 * Not used where ancestors may supply the env (recoverEnv) or stdin may be held open (bounded).
 */
function outsideOrcaDrain(step: Extract<Step, { op: 'captureStdin' }>): string[] {
  if (step.policy === 'firstJsonValue') return [];
  const bounded = step.boundedIf !== undefined ? `[ -z "\${${checkEnvName(step.boundedIf)}-}" ] && ` : '';
  return [
    `if ${bounded}[ -z "\${ORCA_AGENT_HOOK_ENDPOINT-}" ] && { [ -z "\${ORCA_AGENT_HOOK_PORT-}" ] || [ -z "\${ORCA_AGENT_HOOK_TOKEN-}" ] || [ -z "\${ORCA_PANE_KEY-}" ]; }; then`,
    `  ${POSIX_STDIN_READER} >/dev/null`,
    '  exit 0',
    'fi',
  ];
}

function captureLines(step: Extract<Step, { op: 'captureStdin' }>, fastDrain: boolean): string[] {
  const plain = `payload=$(${POSIX_STDIN_READER})`;
  const bounded = [
    `orca_reader=${shSingleQuote(BOUNDED_READER_PY)}`,
    `payload=$([ -d "\${HOME-/nonexistent}" ] || unset HOME; { command -p python3 ${BOUNDED_READER_PY_FLAGS} -c "$orca_reader" || command -p python ${BOUNDED_READER_PY_FLAGS} -c "$orca_reader" || ${POSIX_STDIN_READER}; } 2>/dev/null)`,
  ];
  const lines: string[] = fastDrain ? outsideOrcaDrain(step) : [];
  if (step.policy === 'firstJsonValue') lines.push(...bounded);
  else if (step.boundedIf !== undefined) {
    lines.push(
      `if [ -n "\${${checkEnvName(step.boundedIf)}-}" ]; then`,
      ...bounded.map((l) => `  ${l}`),
      'else',
      `  ${plain}`,
      'fi',
    );
  } else lines.push(plain);
  // Why: `[ -n "$payload" ]` copies the whole payload into an argument (dash ~2 ms, bash ~9 ms per
  // MiB); its length is read without the copy.
  lines.push(`case \${#payload} in 0) ${step.policy === 'emptyAsObject' ? "payload='{}'" : 'exit 0'} ;; esac`);
  return lines;
}

function curlCommand(source: string, maxTimeS: number, headers: string[], data: string[]): string {
  return [
    'LC_ALL=C curl -q -f -sS -X POST',
    `"http://127.0.0.1:\${ORCA_AGENT_HOOK_PORT}/hook/${source}"`,
    `--connect-timeout ${CURL_CONNECT_TIMEOUT_S} --max-time ${maxTimeS} --noproxy 127.0.0.1`,
    ...headers.map((h) => `-H "${h}"`),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: POSIX shell parameter expansion, not a JS template
    '-H "X-Orca-Agent-Hook-Token: ${ORCA_AGENT_HOOK_TOKEN}"',
    ...data,
  ].join(' \\\n    ');
}

function extraLines(extras: readonly ExtraField[]): string[] {
  return extras.flatMap((x, i) => {
    const v = checkEnvName(x.env);
    const lines = [`orca_extra_${i}=\${${v}-}`];
    if (x.maxLen !== undefined) lines.push(`[ "\${#orca_extra_${i}}" -le ${x.maxLen} ] || orca_extra_${i}=`);
    return lines;
  });
}

function postLines(step: Extract<Step, { op: 'post' }>, onFail: string): string[] {
  if (!/^[a-z-]+$/.test(step.source)) throw new HookTemplatesError('ORCA_HOOKS_PLAN_INVALID', 'invalid source');
  const heredoc = ['<<ORCA_PAYLOAD', '$payload', 'ORCA_PAYLOAD'];
  const formData = [
    ...FORM_FIELDS.map(([field, env]) => `--data-urlencode "${field}=\${${env}-}"`),
    ...step.extras.map((x, i) => `--data-urlencode "${x.field}=$orca_extra_${i}"`),
    '--data-urlencode "payload@-"',
  ];
  const form = curlCommand(step.source, step.maxTimeS, ['Content-Type: application/x-www-form-urlencoded'], formData);
  const lines = extraLines(step.extras);
  const formPost = [`${form} >/dev/null 2>&1 ${heredoc[0]} ${onFail}`, heredoc[1] ?? '', heredoc[2] ?? ''];
  if (step.transport === 'form') return [...lines, ...formPost];
  const values = FORM_FIELDS.map(([, env]) => `\${${env}-}`);
  const rawCurl = (encoding: 'base64' | 'plain') =>
    curlCommand(
      step.source,
      step.maxTimeS,
      [
        'Content-Type: application/json',
        `X-Orca-Agent-Hook-Meta-Encoding: ${encoding}`,
        'X-Orca-Agent-Hook-Meta: $orca_meta',
      ],
      ['--data-binary @-'],
    );
  return [
    ...lines,
    // Why: metadata in the endpoint charset goes as is (comma-separated, no process); anything
    // else is base64 (two processes) so that no byte of it can reach curl's header line.
    "orca_meta_plain=''",
    'if [ "$orca_transport" = raw-json-v1 ]; then',
    `  orca_meta=${values.join('')}`,
    '  case $orca_meta in',
    `    *[!${VALUE_CHARS}]*) ;;`,
    '    *) orca_meta_plain=1 ;;',
    '  esac',
    'fi',
    'if [ -n "$orca_meta_plain" ]; then',
    `  orca_meta=${values.join(',')}`,
    `  ${rawCurl('plain')} >/dev/null 2>&1 ${heredoc[0]} ${onFail}`,
    heredoc[1] ?? '',
    heredoc[2] ?? '',
    'elif [ "$orca_transport" = raw-json-v1 ] && command -v base64 >/dev/null 2>&1 && command -v tr >/dev/null 2>&1; then',
    `  orca_us=$(command -p printf '\\037')`,
    `  orca_meta=$(command -p printf '%s' "${values.join('$orca_us')}" | base64 | tr -d '\\n\\r')`,
    `  ${rawCurl('base64')} >/dev/null 2>&1 ${heredoc[0]} ${onFail}`,
    heredoc[1] ?? '',
    heredoc[2] ?? '',
    'else',
    `  ${formPost[0]}`,
    formPost[1] ?? '',
    formPost[2] ?? '',
    'fi',
  ];
}

function guardLines(onFail: string): string[] {
  return [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: POSIX shell parameter expansion, not a JS template
    'if [ -z "${ORCA_AGENT_HOOK_PORT-}" ] || [ -z "${ORCA_AGENT_HOOK_TOKEN-}" ] || [ -z "${ORCA_PANE_KEY-}" ]; then',
    `  ${onFail}`,
    '  exit 0',
    'fi',
    'case $ORCA_AGENT_HOOK_PORT in',
    `  *[!0123456789]*) ${onFail}; exit 0 ;;`,
    'esac',
    `[ "\${#ORCA_AGENT_HOOK_PORT}" -le ${ENDPOINT_PORT_MAX_DIGITS} ] || { ${onFail}; exit 0; }`,
    // Why: a token byte outside the set (CR/LF above all) would end up inside curl's header line.
    'case $ORCA_AGENT_HOOK_TOKEN in',
    `  *[!${HOOK_TOKEN_CHARS}]*) ${onFail}; exit 0 ;;`,
    'esac',
  ];
}

/**
 * The POSIX `sh` script of a plan (`#!/bin/sh`, LF, POSIX syntax only, shellcheck-clean; install
 * it 0755). Throws `ORCA_HOOKS_PLAN_INVALID` for a plan that breaks the stdin contract.
 *
 * @example
 * const text = emitPosix(planFor('codex', { os: 'posix', dialect: 'sh' }));
 */
export function emitPosix(plan: Plan): string {
  assertValidPlan(plan);
  if (plan.target.dialect !== 'sh') {
    throw new HookTemplatesError(
      'ORCA_HOOKS_UNSUPPORTED_TARGET',
      `emitPosix needs dialect sh, got ${plan.target.dialect}`,
    );
  }
  const hasSpool = plan.steps.some((s) => s.op === 'spool');
  const postSource = plan.steps.find((s) => s.op === 'post');
  const onFail = hasSpool ? 'spool_hook_event' : ':';
  const raw = postSource?.op === 'post' && postSource.transport === 'raw-json-v1';
  const out: string[] = [
    '#!/bin/sh',
    `# Orca agent hook for ${plan.agent} (${plan.target.os}); generated by @orca/hook-templates, do not edit.`,
    '# Stdin contract: only protocol output precedes the one read of stdin to EOF; every path exits 0.',
    '# The endpoint file is parsed, never sourced.',
    parseEndpointFunction(raw),
    refreshEndpointFunction(raw),
  ];
  if (plan.steps.some((s) => s.op === 'recoverEnv')) out.push(recoverEnvFunction());
  if (hasSpool && postSource?.op === 'post') out.push(spoolFunction(postSource.source));
  out.push("payload=''");
  if (raw) out.push("orca_transport=''");
  for (const step of plan.steps) {
    switch (step.op) {
      case 'protocolOutput':
        out.push(...protocolLines(step.out));
        break;
      case 'captureStdin':
        out.push(...captureLines(step, plan.target.os === 'posix' && !plan.steps.some((x) => x.op === 'recoverEnv')));
        break;
      case 'skipIf':
        out.push(`[ -z "\${${checkEnvName(step.env)}-}" ] || exit 0`);
        break;
      case 'recoverEnv':
        out.push('orca_recover_env 2>/dev/null');
        break;
      case 'spool':
        break;
      case 'refreshEndpoint':
        out.push('orca_refresh_endpoint');
        break;
      case 'guardEnv':
        out.push(...guardLines(onFail));
        break;
      case 'post':
        out.push(...postLines(step, `|| ${onFail}`));
        break;
      case 'exit':
        out.push('exit 0');
        break;
    }
  }
  return `${out.join('\n')}\n`;
}
