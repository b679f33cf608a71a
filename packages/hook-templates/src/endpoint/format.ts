import { HookTemplatesError } from '../errors.ts';
import { ENDPOINT_PORT_RE, ENDPOINT_VALUE_RE, type EndpointValues } from './parse.ts';

function pairs(values: EndpointValues): [string, string][] {
  const out: [string, string][] = [
    ['ORCA_AGENT_HOOK_PORT', values.port],
    ['ORCA_AGENT_HOOK_TOKEN', values.token],
  ];
  if (values.env !== undefined) out.push(['ORCA_AGENT_HOOK_ENV', values.env]);
  if (values.version !== undefined) out.push(['ORCA_AGENT_HOOK_VERSION', values.version]);
  if (values.transport !== undefined) out.push(['ORCA_AGENT_HOOK_TRANSPORT', values.transport]);
  if (!ENDPOINT_PORT_RE.test(values.port) || !out.every(([, v]) => ENDPOINT_VALUE_RE.test(v))) {
    throw new HookTemplatesError(
      'ORCA_HOOKS_UNSAFE_PATH',
      'endpoint value outside [A-Za-z0-9._:/-]+ (PORT: 1-5 digits)',
    );
  }
  return out;
}

/**
 * POSIX `endpoint.env` text (`KEY=VALUE\n`). Throws `ORCA_HOOKS_UNSAFE_PATH` for a value outside
 * the allowed characters.
 *
 * @example
 * formatEndpointEnv({ port: '4711', token: 't', env: 'local', version: '1' })
 */
export function formatEndpointEnv(values: EndpointValues): string {
  return pairs(values)
    .map(([k, v]) => `${k}=${v}\n`)
    .join('');
}

/** Windows `endpoint.cmd` text (`set KEY=VALUE\r\n`). */
export function formatEndpointCmd(values: EndpointValues): string {
  return pairs(values)
    .map(([k, v]) => `set ${k}=${v}\r\n`)
    .join('');
}
