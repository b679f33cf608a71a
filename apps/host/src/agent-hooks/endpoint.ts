import { randomBytes } from 'node:crypto';
import { HOOK_PROTOCOL_VERSION, writeEndpointFile } from '@orca/relay/listener';
import { HOOK_TOKEN_BYTES } from '../constants.ts';
import { HostError } from '../errors.ts';

/** The hook endpoint of one host run. */
export interface HookEndpoint {
  readonly port: number;
  readonly token: string;
  readonly env: 'local';
  readonly version: string;
  readonly transport?: 'raw-json-v1';
}

/** A fresh 128-bit token as 32 lowercase hex chars (passes the endpoint value guard). */
export function newHookToken(): string {
  return randomBytes(HOOK_TOKEN_BYTES).toString('hex');
}

/** Builds this run's endpoint values. */
export function hookEndpoint(port: number, token: string, transport?: 'raw-json-v1'): HookEndpoint {
  return { port, token, env: 'local', version: HOOK_PROTOCOL_VERSION, ...(transport ? { transport } : {}) };
}

/** Writes `endpoint.env` and `endpoint.cmd` atomically into `dir` (through `@orca/relay`'s writer). */
export async function publishEndpoint(dir: string, endpoint: HookEndpoint): Promise<void> {
  for (const format of ['env', 'cmd'] as const) {
    const ok = await writeEndpointFile(dir, endpoint, { format });
    if (!ok) {
      throw new HostError('ORCA_HOST_DATA_DIR', `cannot write the hook endpoint file (${format}) in ${dir}`, {
        context: { dir },
      });
    }
  }
}

/** The environment a local pane gets so its hook scripts reach this host. */
export function paneHookEnv(endpoint: HookEndpoint, endpointPath: string): Record<string, string> {
  return {
    ORCA_AGENT_HOOK_PORT: String(endpoint.port),
    ORCA_AGENT_HOOK_TOKEN: endpoint.token,
    ORCA_AGENT_HOOK_ENV: endpoint.env,
    ORCA_AGENT_HOOK_VERSION: endpoint.version,
    ORCA_AGENT_HOOK_ENDPOINT: endpointPath,
  };
}
