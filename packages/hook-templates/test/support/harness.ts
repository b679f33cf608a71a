import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './fixtures.ts';

/** A PATH dir whose `curl` logs its argv (one per line) to `$CURL_ARGV_LOG`, then execs the real curl. */
export function argvLoggingCurlDir(realCurl: string): string {
  const dir = tempDir('orca-ht-bin-');
  writeFileSync(join(dir, 'curl'), `#!/bin/sh\nprintf '%s\\n' "$@" >>"$CURL_ARGV_LOG"\nexec ${realCurl} "$@"\n`);
  chmodSync(join(dir, 'curl'), 0o755);
  return dir;
}

/** A PATH dir with a decoy `cat` that leaves a canary and reads nothing. */
export function decoyCatDir(canary: string): string {
  const dir = tempDir('orca-ht-decoy-');
  writeFileSync(join(dir, 'cat'), `#!/bin/sh\n: >'${canary}'\nexit 0\n`);
  chmodSync(join(dir, 'cat'), 0o755);
  return dir;
}

/** Writes an endpoint file into a fresh dir; returns its path. */
export function endpointFile(text: string): string {
  const dir = tempDir('orca-ht-ep-');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'endpoint.env');
  writeFileSync(path, text);
  return path;
}
