import { spawnSync } from 'node:child_process';
import type { SandboxLaunch, SandboxRuntime } from './sandbox.ts';

/** Options of {@link createBwrapSandbox}. */
export interface BwrapSandboxOptions {
  /** The only writable tree (besides a private `/tmp`). */
  root: string;
  /** Keep the host network (default: `--unshare-net`). */
  allowNetwork?: boolean;
  /** bubblewrap binary (default `bwrap` on PATH). */
  bwrapPath?: string;
}

/** Arguments of a bwrap launch for `command`. */
export function bwrapArgs(options: BwrapSandboxOptions, command: string): string[] {
  return [
    '--die-with-parent',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--bind',
    options.root,
    options.root,
    ...(options.allowNetwork === true ? [] : ['--unshare-net']),
    '--',
    '/bin/sh',
    '-c',
    command,
  ];
}

/**
 * Whether bwrap can run here: present and able to make its namespaces (as root, or with
 * unprivileged user namespaces). Returns the reason when it cannot.
 */
export function probeBwrap(
  options: Omit<BwrapSandboxOptions, 'root'> = {},
): { ok: true } | { ok: false; reason: string } {
  const r = spawnSync(options.bwrapPath ?? 'bwrap', bwrapArgs({ ...options, root: '/' }, 'exit 0'), {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 10_000,
    encoding: 'utf8',
  });
  if (r.error !== undefined) return { ok: false, reason: `bwrap cannot start: ${r.error.message}` };
  if (r.status !== 0)
    return { ok: false, reason: `bwrap cannot create a sandbox: ${(r.stderr ?? '').trim() || `exit ${r.status}`}` };
  return { ok: true };
}

/**
 * A bubblewrap sandbox runtime (Linux): the whole file system read-only except `root` and a
 * private `/tmp`, no network unless `allowNetwork`. It cannot count violations (always 0), so
 * only a wrapper start failure escalates; a denied write shows as the hook's own non-zero exit.
 *
 * @example
 * const runner = createCommandHookRunner({ hooks, sandbox: createBwrapSandbox({ root: '/repo' }) });
 */
export function createBwrapSandbox(options: BwrapSandboxOptions): SandboxRuntime {
  let enabled: boolean | undefined;
  return {
    name: 'bwrap',
    enabled() {
      enabled ??= probeBwrap(options).ok;
      return enabled;
    },
    async prepare({ command }): Promise<SandboxLaunch> {
      return { file: options.bwrapPath ?? 'bwrap', args: bwrapArgs(options, command) };
    },
    violations: () => 0,
  };
}
