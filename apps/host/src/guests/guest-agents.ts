import { posix } from 'node:path';
import { AGENT_IDS, getAgent } from '@orca/hook-templates/agents';
import { configPath } from '@orca/hook-templates/install';

/** The agent used when a guest shows none of the agents' config directories. */
export const GUEST_FALLBACK_AGENTS: readonly string[] = ['claude'];

/**
 * The agents a guest has: those whose config directory (`~/.claude`, `~/.codex`, `~/.gemini`, …,
 * as the installers place their files) exists in the guest home, checked through the guest's fs
 * bridge. None found → {@link GUEST_FALLBACK_AGENTS}.
 *
 * @example
 * await agentsInGuest(guest.home, (p) => guest.fs.stat(p)) // ['claude', 'codex']
 */
export async function agentsInGuest(home: string, stat: (path: string) => Promise<unknown>): Promise<string[]> {
  const found: string[] = [];
  for (const id of AGENT_IDS) {
    const dir = posix.dirname(configPath(getAgent(id), 'posix', home));
    // Why: an agent whose config lives in the home itself says nothing by the home existing.
    if (dir === home) continue;
    const st = (await stat(dir).catch(() => null)) as { ok?: unknown; type?: unknown } | null;
    if (st?.ok === true && st.type === 'dir') found.push(id);
  }
  return found.length > 0 ? found : [...GUEST_FALLBACK_AGENTS];
}
