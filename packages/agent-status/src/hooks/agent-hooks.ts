import type { AgentId } from '../agent-ids.ts';
import {
  ampDialect,
  antigravityDialect,
  claudeDialect,
  claudeFamily,
  codexDialect,
  copilotDialect,
  cursorDialect,
  type Dialect,
  droidDialect,
  geminiDialect,
  opencodeDialect,
  piDialect,
  qwenDialect,
} from './dialects.ts';

/** What one agent's hook events mean to the status engine. */
export interface AgentHooks {
  /** Maps each event to a meaning (null: no row). */
  readonly dialect: Dialect;
  /**
   * Events the agent may fire that deliberately produce no row: a listed ignore, so a contract
   * test can tell "ignored on purpose" from "forgotten". Events ignored only for some payloads
   * (Claude `SessionStart` `compact`, `PostCompact` `auto`; Copilot non-fatal `ErrorOccurred`) map
   * to a row otherwise and are not listed.
   */
  readonly ignored: readonly string[];
  /** The events that prove the agent took a prompt (its UserPromptSubmit class); empty: none does. */
  readonly promptSubmit: readonly string[];
}

const CLAUDE_IGNORED = ['Notification', 'SessionEnd', 'SubagentStart', 'SubagentStop', 'PreCompact', 'TeammateIdle'];

/** Claude Code's hooks, which hermes, kimi, crush and command-code copy (no table of their own). */
const CLAUDE_HOOKS: AgentHooks = {
  dialect: claudeDialect,
  ignored: CLAUDE_IGNORED,
  promptSubmit: ['UserPromptSubmit'],
};
const OPENCODE_HOOKS: AgentHooks = { dialect: opencodeDialect, ignored: [], promptSubmit: ['UserPromptSubmit'] };
const PI_HOOKS: AgentHooks = { dialect: piDialect, ignored: ['session_start'], promptSubmit: ['before_agent_start'] };

/**
 * Every hook source's events: one entry per agent of the shared catalogue's `HOOK_SOURCES`
 * (the type makes a missing one a compile error). Adding an agent: the root README's "Adding an
 * agent".
 *
 * @example
 * AGENT_HOOKS.gemini.promptSubmit // ['BeforeAgent']
 */
export const AGENT_HOOKS: Readonly<Record<AgentId, AgentHooks>> = {
  claude: CLAUDE_HOOKS,
  codex: {
    dialect: codexDialect,
    // Why: the installer registers Codex's subagent events; they carry no lead state (spec §6).
    ignored: ['SubagentStart', 'SubagentStop'],
    promptSubmit: ['UserPromptSubmit'],
  },
  gemini: {
    dialect: geminiDialect,
    ignored: ['Notification', 'SessionStart', 'SessionEnd', 'PreCompress'],
    promptSubmit: ['BeforeAgent'],
  },
  antigravity: { dialect: antigravityDialect, ignored: ['PostInvocation'], promptSubmit: ['PreInvocation'] },
  amp: { dialect: ampDialect, ignored: ['session.start'], promptSubmit: ['agent.start'] },
  opencode: OPENCODE_HOOKS,
  'mimo-code': OPENCODE_HOOKS,
  cursor: {
    dialect: cursorDialect,
    ignored: [
      'afterShellExecution',
      'afterMCPExecution',
      'afterFileEdit',
      'beforeReadFile',
      'afterAgentThought',
      'preCompact',
    ],
    promptSubmit: ['beforeSubmitPrompt'],
  },
  pi: PI_HOOKS,
  omp: PI_HOOKS,
  droid: {
    dialect: droidDialect,
    ignored: ['SessionStart', 'SessionEnd', 'SubagentStop', 'PreCompact'],
    promptSubmit: ['UserPromptSubmit'],
  },
  'command-code': CLAUDE_HOOKS,
  grok: {
    dialect: claudeFamily(['sessionend'], ['stopcancelled']),
    ignored: ['Notification', 'SubagentStart', 'SubagentStop', 'PreCompact'],
    promptSubmit: ['UserPromptSubmit'],
  },
  copilot: {
    dialect: copilotDialect,
    ignored: ['subagentStart', 'SubagentStop', 'PreCompact'],
    promptSubmit: ['UserPromptSubmit'],
  },
  hermes: CLAUDE_HOOKS,
  devin: {
    dialect: claudeFamily(['postcompaction', 'sessionend'], []),
    ignored: ['Notification', 'SubagentStart', 'SubagentStop', 'PreCompact'],
    promptSubmit: ['UserPromptSubmit'],
  },
  kimi: CLAUDE_HOOKS,
  crush: CLAUDE_HOOKS,
  // Why: Qwen Code's hooks are Claude's events and payloads (0.24.4 `packages/core/src/hooks`).
  qwen: { dialect: qwenDialect, ignored: [...CLAUDE_IGNORED, 'SessionStart'], promptSubmit: ['UserPromptSubmit'] },
};

function pick<T>(field: (hooks: AgentHooks) => T): Record<AgentId, T> {
  return Object.fromEntries(Object.entries(AGENT_HOOKS).map(([id, hooks]) => [id, field(hooks)])) as Record<AgentId, T>;
}

/** The dialect of every hook source ({@link AGENT_HOOKS}' `dialect`). */
export const DIALECTS: Readonly<Record<AgentId, Dialect>> = Object.freeze(pick((h) => h.dialect));

/** Hook events each agent deliberately turns into no row ({@link AGENT_HOOKS}' `ignored`). */
export const IGNORED_HOOK_EVENTS: Readonly<Record<AgentId, readonly string[]>> = Object.freeze(pick((h) => h.ignored));
