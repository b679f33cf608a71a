import type { AgentId } from '../agent-ids.ts';
import { commandBasename, isShellName } from '../title/agent-names.ts';

const BINARIES: Readonly<Record<string, AgentId>> = {
  claude: 'claude',
  codex: 'codex',
  gemini: 'gemini',
  'cursor-agent': 'cursor',
  droid: 'droid',
  devin: 'devin',
  grok: 'grok',
  copilot: 'copilot',
  antigravity: 'antigravity',
  agy: 'antigravity',
  'command-code': 'command-code',
  opencode: 'opencode',
  'mimo-code': 'mimo-code',
  mimo: 'mimo-code',
  amp: 'amp',
  pi: 'pi',
  omp: 'omp',
  hermes: 'hermes',
  kimi: 'kimi',
  crush: 'crush',
};

// npm package names seen in interpreter argv (`node …/node_modules/<pkg>/…`).
const PACKAGES: readonly [string, AgentId][] = [
  ['@anthropic-ai/claude-code', 'claude'],
  ['@openai/codex', 'codex'],
  ['@google/gemini-cli', 'gemini'],
  ['@github/copilot', 'copilot'],
  ['@sourcegraph/amp', 'amp'],
  ['opencode-ai', 'opencode'],
  ['@mariozechner/pi-coding-agent', 'pi'],
  ['@factory/cli', 'droid'],
];

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
  const direct = BINARIES[base];
  if (direct) return direct === 'claude' && isPrintMode(tokens.slice(1)) ? null : direct;
  if (!INTERPRETERS.has(base.replace(/[\d.]+$/, ''))) return null;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    if (token === '-m') return BINARIES[commandBasename(tokens[i + 1] ?? '')] ?? null;
    if (token.startsWith('-')) continue;
    const normalized = token.replace(/\\/g, '/');
    for (const [pkg, agent] of PACKAGES) if (normalized.includes(`/${pkg}/`) || normalized === pkg) return agent;
    const script = BINARIES[commandBasename(token).replace(SCRIPT_EXT, '')];
    if (script) return script === 'claude' && isPrintMode(tokens.slice(i + 1)) ? null : script;
    // npx/bunx/uvx take the package as their first argument; others the script.
    if (!['npx', 'bunx', 'uvx', 'uv', 'tsx'].includes(base)) return null;
  }
  return null;
}

function isPrintMode(args: readonly string[]): boolean {
  return args.some((a) => a === '-p' || a === '--print');
}

export { isShellName };
