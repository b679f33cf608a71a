import { AGENT_FACTS } from '@orca/shared/agents';
import { type AgentId, STATUS_AGENT_IDS } from '../agent-ids.ts';
import { commandBasename, isShellName } from '../title/agent-names.ts';

// Why: built from the shared catalogue, so an agent added there is recognised with no edit here.
const BINARIES: ReadonlyMap<string, AgentId> = new Map(
  STATUS_AGENT_IDS.flatMap((id) => AGENT_FACTS[id].commands.map((command) => [command, id] as const)),
);

// npm package names seen in interpreter argv (`node …/node_modules/<pkg>/…`).
const PACKAGES: readonly (readonly [string, AgentId])[] = STATUS_AGENT_IDS.flatMap((id) =>
  AGENT_FACTS[id].packages.map((pkg) => [pkg, id] as const),
);

const INTERPRETERS = new Set(['node', 'nodejs', 'bun', 'deno', 'python', 'python3', 'tsx', 'npx', 'bunx', 'uv', 'uvx']);
const SCRIPT_EXT = /\.(?:js|mjs|cjs|ts|py)$/;

/**
 * The agent a foreground command line runs, seeing through interpreters (`node …/@openai/codex/…`,
 * `bun`, `python -m`); null for anything else. `claude -p` is a one-shot, not a TUI.
 *
 * @example
 * recognise('node /usr/lib/node_modules/@openai/codex/bin/codex.js'); // 'codex'
 * recognise('claude -p "hi"'); // null
 */
export function recognise(cmdline: string | null | undefined): AgentId | null {
  if (typeof cmdline !== 'string') return null;
  const tokens = cmdline
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
  const first = tokens[0];
  if (first === undefined) return null;
  const base = commandBasename(first);
  const direct = BINARIES.get(base);
  if (direct) return isOneShot(direct, tokens.slice(1)) ? null : direct;
  if (!INTERPRETERS.has(base.replace(/[\d.]+$/, ''))) return null;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    if (token === '-m') return BINARIES.get(commandBasename(tokens[i + 1] ?? '')) ?? null;
    if (token.startsWith('-')) continue;
    const normalized = token.replace(/\\/g, '/');
    const pkg = packageIn(normalized);
    if (pkg) return pkg;
    const script = BINARIES.get(commandBasename(token).replace(SCRIPT_EXT, ''));
    if (script) return isOneShot(script, tokens.slice(i + 1)) ? null : script;
    // npx/bunx/uvx take the package as their first argument; others the script.
    if (!['npx', 'bunx', 'uvx', 'uv', 'tsx'].includes(base)) return null;
  }
  return null;
}

/**
 * The agent whose npm package holds the script: the innermost (last) package named in the path,
 * so a package nested in another's `node_modules` wins, whatever the catalogue's order.
 */
function packageIn(path: string): AgentId | null {
  const exact = PACKAGES.find(([pkg]) => path === pkg);
  if (exact) return exact[1];
  let best: AgentId | null = null;
  let bestAt = -1;
  for (const [pkg, agent] of PACKAGES) {
    const at = path.lastIndexOf(`/${pkg}/`);
    if (at > bestAt) {
      best = agent;
      bestAt = at;
    }
  }
  return best;
}

function isOneShot(agent: AgentId, args: readonly string[]): boolean {
  const flags = AGENT_FACTS[agent].oneShotFlags;
  return args.some((a) => flags.includes(a));
}

export { isShellName };
