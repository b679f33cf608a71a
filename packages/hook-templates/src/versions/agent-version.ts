/**
 * Which command prints each agent's version, and how to read it. Pure: the probe that runs the
 * command is `detect.ts` (I/O), injected where a caller wants another one.
 */
import { AGENT_FACTS, MANAGED_AGENTS } from '@orca/shared/agents';

/**
 * The command and arguments that print an agent's version (on PATH, as a user types it), for the
 * managed agents that have one: the shared catalogue's `versionCommand`.
 */
export const AGENT_VERSION_COMMANDS: Readonly<Record<string, readonly [string, ...string[]]>> = Object.freeze(
  Object.fromEntries(
    MANAGED_AGENTS.flatMap((id) => {
      const argv = AGENT_FACTS[id].versionCommand;
      return argv === null ? [] : [[id, argv] as const];
    }),
  ),
);

// Why: a sentence's full stop may follow (`GitHub Copilot CLI 1.0.102.`); a fourth number may not.
const VERSION = /(?<![\w.])v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)(?!\w|\.\w)/;

/**
 * The first `major.minor.patch[-pre]` in a `--version` output (`2.1.332 (Claude Code)`,
 * `codex-cli 0.171.0`, `0.61.0`), or null.
 *
 * @example
 * parseAgentVersion('codex-cli 0.171.0\n') // '0.171.0'
 */
export function parseAgentVersion(output: string): string | null {
  const m = VERSION.exec(output.slice(0, 4096));
  return m?.[1] ?? null;
}

/** A detected version and the command line that reported it. */
export interface DetectedVersion {
  readonly agent: string;
  readonly version: string;
  readonly command: string;
}

/** Runs one version command; resolves to its stdout, or null (absent, failed, timed out). */
export type VersionProbe = (argv: readonly [string, ...string[]]) => Promise<string | null>;

/**
 * The version of `agent` as its own CLI reports it, through `probe`; null when the agent has no
 * version command, is not on PATH, or printed no version.
 */
export async function detectAgentVersion(agent: string, probe: VersionProbe): Promise<DetectedVersion | null> {
  const argv = AGENT_VERSION_COMMANDS[agent];
  if (!argv) return null;
  let out: string | null;
  try {
    out = await probe(argv);
  } catch {
    return null;
  }
  const version = out === null ? null : parseAgentVersion(out);
  return version === null ? null : { agent, version, command: argv.join(' ') };
}
