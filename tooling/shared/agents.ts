/**
 * The agent catalogue every package shares: which agents post hooks (and in which canonical
 * order), which of them Orca installs status hooks for, the file stems those hooks use, and the
 * facts about each agent more than one package reads (the commands that run it, the names its
 * titles carry, the command that prints its version). One list, inlined into each package at
 * build; the behaviour only one package has lives in that package's own table (hook-templates'
 * registry, agent-status' hook table). Adding an agent: the root README's "Adding an agent".
 */

/** Every agent that posts hooks, in the canonical order: the `<source>` of `POST /hook/<source>`. */
export const HOOK_SOURCES = [
  'claude',
  'codex',
  'gemini',
  'antigravity',
  'amp',
  'opencode',
  'mimo-code',
  'cursor',
  'pi',
  'omp',
  'droid',
  'command-code',
  'grok',
  'copilot',
  'hermes',
  'devin',
  'kimi',
  'crush',
  'qwen',
] as const;

/** One hook source. */
export type HookSource = (typeof HOOK_SOURCES)[number];

/** The agents whose status hooks Orca installs (`@orca/hook-templates`), in registry order. */
export const MANAGED_AGENTS = [
  'claude',
  'openclaude',
  'codex',
  'gemini',
  'antigravity',
  'cursor',
  'droid',
  'devin',
  'grok',
  'copilot',
  'command-code',
  'qwen',
  'opencode',
] as const;

/** One managed agent. */
export type ManagedAgentId = (typeof MANAGED_AGENTS)[number];

/**
 * Antigravity's config names one script per event: its vendor event names and their wrapper
 * stems (`~/.orca/agent-hooks/<stem>.<ext>`).
 */
export const ANTIGRAVITY_WRAPPERS = {
  PreInvocation: 'antigravity-pre-invocation',
  PostInvocation: 'antigravity-post-invocation',
  Stop: 'antigravity-stop',
  PreToolUse: 'antigravity-pre-tool-use',
  PostToolUse: 'antigravity-post-tool-use',
} as const;

/** Every managed file stem: `<agent>-hook`, `<agent>-hook-impl`, and the per-event wrappers. */
export const MANAGED_STEMS: readonly string[] = [
  ...MANAGED_AGENTS.flatMap((a) => [`${a}-hook`, `${a}-hook-impl`]),
  ...Object.values(ANTIGRAVITY_WRAPPERS),
];

/** Every agent id of the catalogue: the hook sources and the managed agents. */
export type CatalogueAgentId = HookSource | ManagedAgentId;

/** What more than one package knows about one agent, beside its id. */
export interface AgentFacts {
  /**
   * Command basenames that run the agent as a TUI: argv[0] of its process, or the script an
   * interpreter runs (`node …/codex.js`). The status engine recognises hook sources by these.
   */
  readonly commands: readonly string[];
  /** npm packages whose path in an interpreter's argv runs it (`node …/node_modules/<pkg>/…`). */
  readonly packages: readonly string[];
  /** Flags after which the command is a one-shot, not a TUI (`claude -p "hi"`). */
  readonly oneShotFlags: readonly string[];
  /** Whole words a terminal title names it by, lower case. */
  readonly titleNames: readonly string[];
  /** A title that only names the agent says nothing of its state (no status words ⇒ unknown, not idle). */
  readonly titleNameOnly: boolean;
  /** The command that prints its version, as a user types it; null when it has none we know. */
  readonly versionCommand: readonly [string, ...string[]] | null;
}

/** The facts an agent has unless its entry says otherwise. */
export const AGENT_FACT_DEFAULTS: AgentFacts = {
  commands: [],
  packages: [],
  oneShotFlags: [],
  titleNames: [],
  titleNameOnly: false,
  versionCommand: null,
};

/** A catalogue entry: only what differs from {@link AGENT_FACT_DEFAULTS}. */
export type AgentFactsEntry = Partial<AgentFacts>;

/** One agent known by the same word everywhere: its command, its title name, `<word> --version`. */
function named(word: string, more: AgentFactsEntry = {}): AgentFactsEntry {
  return { commands: [word], titleNames: [word], versionCommand: [word, '--version'], ...more };
}

const ENTRIES: Readonly<Record<CatalogueAgentId, AgentFactsEntry>> = {
  claude: named('claude', { packages: ['@anthropic-ai/claude-code'], oneShotFlags: ['-p', '--print'] }),
  // Why: openclaude posts as `claude` (its hooks are Claude's); only its installer and version differ.
  openclaude: { versionCommand: ['openclaude', '--version'] },
  codex: named('codex', { packages: ['@openai/codex'] }),
  gemini: named('gemini', { packages: ['@google/gemini-cli'] }),
  antigravity: {
    commands: ['antigravity', 'agy'],
    titleNames: ['antigravity', 'agy'],
    versionCommand: ['agy', '--version'],
  },
  amp: named('amp', { packages: ['@sourcegraph/amp'], versionCommand: null }),
  opencode: named('opencode', { packages: ['opencode-ai'] }),
  'mimo-code': { commands: ['mimo-code', 'mimo'], titleNames: ['mimo-code', 'mimo'] },
  cursor: {
    commands: ['cursor-agent'],
    titleNames: ['cursor', 'cursor-agent'],
    versionCommand: ['cursor-agent', '--version'],
  },
  // Why: pi and omp name themselves in titles by their own pattern (`π`, `OMP`), never by a bare word.
  pi: { commands: ['pi'], packages: ['@mariozechner/pi-coding-agent'] },
  omp: { commands: ['omp'] },
  droid: named('droid', { packages: ['@factory/cli'], titleNameOnly: true }),
  'command-code': named('command-code'),
  grok: named('grok'),
  copilot: named('copilot', { packages: ['@github/copilot'] }),
  hermes: named('hermes', { versionCommand: null }),
  devin: named('devin'),
  kimi: named('kimi', { versionCommand: null }),
  crush: named('crush', { versionCommand: null }),
  qwen: named('qwen', { packages: ['@qwen-code/qwen-code'], oneShotFlags: ['-p', '--prompt'] }),
};

/**
 * The facts of every agent of the catalogue, defaults filled in.
 *
 * @example
 * AGENT_FACTS.cursor.commands // ['cursor-agent']
 * AGENT_FACTS.antigravity.versionCommand // ['agy', '--version']
 */
export const AGENT_FACTS: Readonly<Record<CatalogueAgentId, AgentFacts>> = Object.fromEntries(
  Object.entries(ENTRIES).map(([id, entry]) => [id, { ...AGENT_FACT_DEFAULTS, ...entry }]),
) as Record<CatalogueAgentId, AgentFacts>;
