import { z } from 'zod';
import { ENDPOINT_MAX_LINES } from '../constants.ts';

/** The five keys an endpoint file may set. */
export const ENDPOINT_KEYS = [
  'ORCA_AGENT_HOOK_PORT',
  'ORCA_AGENT_HOOK_TOKEN',
  'ORCA_AGENT_HOOK_ENV',
  'ORCA_AGENT_HOOK_VERSION',
  'ORCA_AGENT_HOOK_TRANSPORT',
] as const;

/** One endpoint key. */
export type EndpointKey = (typeof ENDPOINT_KEYS)[number];

/** A line that counts (spec §5); every other line is ignored. */
export const ENDPOINT_LINE_RE = /^(?:set )?ORCA_AGENT_HOOK_(PORT|TOKEN|ENV|VERSION|TRANSPORT)=([A-Za-z0-9._:/-]+)\r?$/;
/** Valid PORT value. */
export const ENDPOINT_PORT_RE = /^[0-9]{1,5}$/;
/** Valid value of any key. */
export const ENDPOINT_VALUE_RE = /^[A-Za-z0-9._:/-]+$/;

const endpointSchema = z.object({
  port: z.string().regex(ENDPOINT_PORT_RE),
  token: z.string().regex(ENDPOINT_VALUE_RE),
  env: z.string().regex(ENDPOINT_VALUE_RE).optional(),
  version: z.string().regex(ENDPOINT_VALUE_RE).optional(),
  transport: z.string().regex(ENDPOINT_VALUE_RE).optional(),
});

/** What an applicable endpoint file sets. Absent optional keys leave the env as it was. */
export type EndpointValues = z.infer<typeof endpointSchema>;

const FIELD: Record<string, keyof EndpointValues> = {
  PORT: 'port',
  TOKEN: 'token',
  ENV: 'env',
  VERSION: 'version',
  TRANSPORT: 'transport',
};

/**
 * The reference parser of `endpoint.env` / `endpoint.cmd` text: lines matching
 * {@link ENDPOINT_LINE_RE} among the first {@link ENDPOINT_MAX_LINES} (split on `\n`), last wins;
 * `null` unless PORT (1–5 digits) and TOKEN are both set. Never throws; never evaluates anything.
 *
 * @example
 * parseEndpointText('ORCA_AGENT_HOOK_PORT=4711\nORCA_AGENT_HOOK_TOKEN=abc\n') // { port: '4711', token: 'abc' }
 */
export function parseEndpointText(text: string): EndpointValues | null {
  const found: Partial<Record<keyof EndpointValues, string>> = {};
  const lines = text.split('\n').slice(0, ENDPOINT_MAX_LINES);
  for (const line of lines) {
    const m = ENDPOINT_LINE_RE.exec(line);
    const key = m?.[1];
    const value = m?.[2];
    if (key === undefined || value === undefined) continue;
    const field = FIELD[key];
    if (field === undefined) continue;
    if (field === 'port' && !ENDPOINT_PORT_RE.test(value)) continue;
    found[field] = value;
  }
  const parsed = endpointSchema.safeParse(found);
  return parsed.success ? parsed.data : null;
}
