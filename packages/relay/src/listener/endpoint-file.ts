import { randomUUID } from 'node:crypto';
import { chmod, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ENDPOINT_TMP_STALE_MS, ENDPOINT_TMP_SWEEP_MAX_ENTRIES } from '../constants.ts';

/** Values written into an endpoint file. Each must match {@link ENDPOINT_VALUE_RE}. */
export interface EndpointValues {
  port: number | string;
  token: string;
  env: string;
  version: string;
  /** Optional fifth key: `raw-json-v1` opts scripts into a JSON body. */
  transport?: string;
}

/** Endpoint file format: POSIX `KEY=VALUE` (`endpoint.env`) or Windows `set KEY=VALUE` (`endpoint.cmd`). */
export type EndpointFormat = 'env' | 'cmd';

/** Every endpoint value must match this (shells source the file). */
export const ENDPOINT_VALUE_RE = /^[A-Za-z0-9._:/-]+$/;

/** File name of an endpoint file of `format`. */
export function endpointFileName(format: EndpointFormat): string {
  return format === 'env' ? 'endpoint.env' : 'endpoint.cmd';
}

/** The exact bytes of an endpoint file, or `undefined` if a value is unsafe. */
export function renderEndpointFile(values: EndpointValues, format: EndpointFormat): string | undefined {
  const pairs: [string, string][] = [
    ['ORCA_AGENT_HOOK_PORT', String(values.port)],
    ['ORCA_AGENT_HOOK_TOKEN', values.token],
    ['ORCA_AGENT_HOOK_ENV', values.env],
    ['ORCA_AGENT_HOOK_VERSION', values.version],
  ];
  if (values.transport !== undefined) pairs.push(['ORCA_AGENT_HOOK_TRANSPORT', values.transport]);
  if (!pairs.every(([, v]) => typeof v === 'string' && ENDPOINT_VALUE_RE.test(v))) return undefined;
  return pairs.map(([k, v]) => (format === 'env' ? `${k}=${v}\n` : `set ${k}=${v}\r\n`)).join('');
}

async function sweepStaleTmps(dir: string, now: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  let examined = 0;
  for (const name of names) {
    if (!name.startsWith('.endpoint-') || !name.endsWith('.tmp')) continue;
    if (++examined > ENDPOINT_TMP_SWEEP_MAX_ENTRIES) break;
    const p = join(dir, name);
    try {
      const st = await stat(p);
      if (now - st.mtimeMs > ENDPOINT_TMP_STALE_MS) await unlink(p);
    } catch {
      // Why: another writer may have renamed or swept it meanwhile.
    }
  }
}

/**
 * Atomically write `endpoint.env` / `endpoint.cmd` in `dir` (0700 dir, 0600 file on POSIX).
 * Refuses (returns `false`, old file untouched) when a value is unsafe or any step fails.
 * The file is never deleted: a stale one fails open, deleting races a restart.
 *
 * @example
 * await writeEndpointFile(dir, { port: 4711, token, env: 'remote', version: HOOK_PROTOCOL_VERSION }, { format: 'env' })
 */
export async function writeEndpointFile(
  dir: string,
  values: EndpointValues,
  options: { format: EndpointFormat; now?: () => number },
): Promise<boolean> {
  const text = renderEndpointFile(values, options.format);
  if (text === undefined) return false;
  const posix = process.platform !== 'win32';
  let tmp: string | undefined;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (posix) await chmod(dir, 0o700);
    await sweepStaleTmps(dir, (options.now ?? Date.now)());
    tmp = join(dir, `.endpoint-${process.pid}-${randomUUID()}.tmp`);
    const fh = await open(tmp, 'wx', 0o600);
    try {
      if (posix) await fh.chmod(0o600);
      await fh.writeFile(text, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, join(dir, endpointFileName(options.format)));
    return true;
  } catch {
    if (tmp !== undefined) await unlink(tmp).catch(() => undefined);
    return false;
  }
}
