import { AGENT_FACTS } from '@orca/shared/agents';
import { type AgentId, STATUS_AGENT_IDS } from '../agent-ids.ts';

/**
 * Name tokens a title may carry, mapped to the agent id (null: a known agent Orca has no id for).
 * Built from the shared catalogue's title names.
 */
export const TITLE_AGENT_TOKENS: Readonly<Record<string, AgentId | null>> = Object.freeze({
  ...Object.fromEntries(STATUS_AGENT_IDS.flatMap((id) => AGENT_FACTS[id].titleNames.map((name) => [name, id]))),
  aider: null,
});

/** Shell basenames (§7): a title or foreground whose first token is one of these is a shell. */
export const SHELL_NAMES: ReadonlySet<string> = new Set([
  'bash',
  'zsh',
  'sh',
  'dash',
  'ksh',
  'mksh',
  'fish',
  'tcsh',
  'csh',
  'cmd',
  'powershell',
  'pwsh',
  'nu',
]);

/**
 * Basename of a command token: quotes, directories, `.exe/.cmd/.bat/.ps1` and a login `-` stripped,
 * lowercased.
 */
export function commandBasename(token: string): string {
  let t = token.trim().replace(/^["']+|["']+$/g, '');
  const slash = Math.max(t.lastIndexOf('/'), t.lastIndexOf('\\'));
  if (slash >= 0) t = t.slice(slash + 1);
  t = t.replace(/\.(exe|cmd|bat|ps1)$/i, '');
  if (t.startsWith('-')) t = t.slice(1);
  return t.toLowerCase();
}

/**
 * Is this token (path, quotes, extension and login dash allowed) a shell?
 *
 * @example
 * isShellName('-zsh'); // true
 * isShellName('C:\\Windows\\System32\\cmd.exe'); // true
 */
export function isShellName(token: string): boolean {
  return SHELL_NAMES.has(commandBasename(token));
}
