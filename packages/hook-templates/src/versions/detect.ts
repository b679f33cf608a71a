import { execFile } from 'node:child_process';
import { AGENT_VERSION_TIMEOUT_MS } from '../constants.ts';
import type { VersionProbe } from './agent-version.ts';

/**
 * The real probe: runs the command with `env` (its PATH finds the agent), no stdin, a timeout, and
 * at most 64 KiB of output; any failure is null.
 *
 * @example
 * const probe = nodeVersionProbe(process.env);
 * await detectAgentVersion('claude', probe); // { agent: 'claude', version: '2.1.332', command: 'claude --version' }
 */
export function nodeVersionProbe(
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number = AGENT_VERSION_TIMEOUT_MS,
): VersionProbe {
  return ([file, ...args]) =>
    new Promise((resolve) => {
      try {
        const child = execFile(
          file,
          args,
          { env: { ...env }, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024, windowsHide: true },
          (error, stdout) => resolve(error ? null : String(stdout)),
        );
        child.stdin?.end();
      } catch {
        resolve(null);
      }
    });
}
