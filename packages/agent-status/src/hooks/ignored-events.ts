import type { AgentId } from '../agent-ids.ts';

const CLAUDE_IGNORED = [
  'Notification',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'TeammateIdle',
] as const;

/**
 * Hook events an agent may fire that deliberately produce no status row (a listed ignore, so a
 * contract test can tell "ignored on purpose" from "forgotten"). Some events are ignored only for
 * some payloads (Claude `SessionStart` `compact`, `PostCompact` `auto`; Copilot non-fatal
 * `ErrorOccurred`); those map to a row otherwise and are not listed here.
 */
export const IGNORED_HOOK_EVENTS: Readonly<Record<AgentId, readonly string[]>> = {
  claude: CLAUDE_IGNORED,
  // Why: the installer registers Codex's subagent events; they carry no lead state (spec §6).
  codex: ['SubagentStart', 'SubagentStop'],
  gemini: ['Notification', 'SessionStart', 'SessionEnd', 'PreCompress'],
  antigravity: ['PostInvocation'],
  amp: ['session.start'],
  opencode: [],
  'mimo-code': [],
  cursor: [
    'afterShellExecution',
    'afterMCPExecution',
    'afterFileEdit',
    'beforeReadFile',
    'afterAgentThought',
    'preCompact',
  ],
  pi: ['session_start'],
  omp: ['session_start'],
  droid: ['SessionStart', 'SessionEnd', 'SubagentStop', 'PreCompact'],
  'command-code': CLAUDE_IGNORED,
  grok: ['Notification', 'SubagentStart', 'SubagentStop', 'PreCompact'],
  copilot: ['subagentStart', 'SubagentStop', 'PreCompact'],
  hermes: CLAUDE_IGNORED,
  devin: ['Notification', 'SubagentStart', 'SubagentStop', 'PreCompact'],
  kimi: CLAUDE_IGNORED,
  crush: CLAUDE_IGNORED,
};
