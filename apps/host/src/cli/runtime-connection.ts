import { readFileSync, statSync } from 'node:fs';
import { printableField } from '@orca/shared/printable';
import { RUNTIME_TOKEN_ENV } from '../constants.ts';
import { HostError } from '../errors.ts';
import { connectRemoteRuntime, connectRuntime, type RuntimeClient } from '../rpc/client.ts';
import { resolveDataDir } from '../runtime/data-dir.ts';
import type { GlobalOptions } from './cli-context.ts';
import { UsageError } from './output.ts';

/** Largest token file the CLI reads (bytes); the host writes 49. */
const TOKEN_FILE_MAX_BYTES = 4096;
/** Why: the token goes into an HTTP header; anything else could inject one. */
const TOKEN_PATTERN = /^[A-Za-z0-9._-]{1,1024}$/;
/** Host names the CLI sends a token to: the host's TCP listener is loopback only. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Checks `--remote`: `ws://HOST:PORT` with a loopback HOST; returns the normalised URL. */
export function parseRemoteUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--remote expects ws://127.0.0.1:PORT, got ${printableField(value)}`);
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname);
  if (url.protocol !== 'ws:' || !url.port || !loopback || url.username || url.password || url.search || url.hash)
    throw new UsageError(
      `--remote expects ws://127.0.0.1:PORT (a loopback address; tunnel other machines with ssh -L), got ${printableField(value)}`,
    );
  return `ws://${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** The bearer token for `--remote`: `--token-file`, else `$ORCA_RUNTIME_TOKEN`; a usage error when neither. */
export function remoteToken(tokenFile: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (tokenFile !== undefined) {
    let text: string;
    try {
      if (statSync(tokenFile).size > TOKEN_FILE_MAX_BYTES) throw new Error('the file is too large to be a token');
      text = readFileSync(tokenFile, 'utf8');
    } catch (cause) {
      throw new HostError(
        'ORCA_HOST_AUTH',
        `cannot read the token file ${printableField(tokenFile)}: ${(cause as Error).message}; pass the runtime-token file named by \`orca start --listen\``,
        { cause },
      );
    }
    const token = text.trim();
    if (!TOKEN_PATTERN.test(token))
      throw new HostError(
        'ORCA_HOST_AUTH',
        `the token file ${printableField(tokenFile)} does not hold a token; pass the runtime-token file named by \`orca start --listen\``,
      );
    return token;
  }
  const fromEnv = env[RUNTIME_TOKEN_ENV]?.trim();
  if (!fromEnv)
    throw new UsageError(`--remote needs the host's token: pass --token-file PATH or set ${RUNTIME_TOKEN_ENV}`);
  if (!TOKEN_PATTERN.test(fromEnv))
    throw new UsageError(`${RUNTIME_TOKEN_ENV} does not hold a token (letters, digits, '.', '_', '-' only)`);
  return fromEnv;
}

/**
 * Connects to the runtime the global options name: `--remote` (with `--token-file` or
 * `$ORCA_RUNTIME_TOKEN`) over TCP, else the local host of `--data-dir` through `runtime.json`.
 */
export function connectFromGlobals(globals: GlobalOptions): Promise<RuntimeClient> {
  if (globals.remote !== undefined) {
    const url = parseRemoteUrl(globals.remote);
    return connectRemoteRuntime(url, remoteToken(globals.tokenFile));
  }
  if (globals.tokenFile !== undefined) throw new UsageError('--token-file is used only with --remote ws://HOST:PORT');
  return connectRuntime(resolveDataDir({ flag: globals.dataDir }));
}
