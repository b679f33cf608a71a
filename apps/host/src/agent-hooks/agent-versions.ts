import {
  type DetectedVersion,
  detectAgentVersion,
  nodeVersionProbe,
  type VersionProbe,
} from '@orca/hook-templates/agent-version';

/** Installed agent versions, each detected at most once per cache (once per host start). */
export interface AgentVersions {
  /** The agent's version as its own `--version` reports it (null: not on PATH or no version). */
  get(agent: string): Promise<DetectedVersion | null>;
  /** The detected versions of `agents`, for the installers (`agentVersions`). */
  forAgents(agents: readonly string[]): Promise<Record<string, DetectedVersion>>;
}

/**
 * A version cache over `probe` (default: run the command with `env`, bounded by the hook-templates
 * timeout). A failed or absent probe is cached too: the answer holds for the host's lifetime.
 *
 * @example
 * const versions = createAgentVersions(process.env);
 * await versions.get('claude'); // { agent: 'claude', version: '2.1.332', command: 'claude --version' }
 */
export function createAgentVersions(
  env: Readonly<Record<string, string | undefined>>,
  probe: VersionProbe = nodeVersionProbe(env),
): AgentVersions {
  const cache = new Map<string, Promise<DetectedVersion | null>>();
  const get = (agent: string): Promise<DetectedVersion | null> => {
    let hit = cache.get(agent);
    if (!hit) {
      hit = detectAgentVersion(agent, probe);
      cache.set(agent, hit);
    }
    return hit;
  };
  return {
    get,
    async forAgents(agents) {
      const out: Record<string, DetectedVersion> = {};
      const found = await Promise.all(agents.map((a) => get(a)));
      for (const v of found) if (v) out[v.agent] = v;
      return out;
    },
  };
}
