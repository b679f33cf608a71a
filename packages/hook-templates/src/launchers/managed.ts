import { AGENT_LIST } from '../agents/registry.ts';
import { decodeEncodedCommand } from './powershell.ts';
import { ANTIGRAVITY_WRAPPERS } from './windows.ts';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every managed file stem (`<stem>.` after `agent-hooks/`): scripts, impls and wrappers. */
export const MANAGED_STEMS: readonly string[] = [
  ...AGENT_LIST.flatMap((d) => [`${d.scriptStem}-hook`, `${d.scriptStem}-hook-impl`]),
  ...Object.values(ANTIGRAVITY_WRAPPERS),
];

const MANAGED_RE = new RegExp(`agent-hooks/(?:${MANAGED_STEMS.map(escapeRe).join('|')})\\.`);

/**
 * Whether a config handler's command is one of ours: after `\` → `/` and decoding any
 * `-EncodedCommand`, it names `agent-hooks/<stem>.` for a managed stem (any extension, platform
 * or directory). Never throws.
 *
 * @example
 * isManagedCommand("/bin/sh '/home/u/.orca/agent-hooks/codex-hook.sh'") // true
 */
export function isManagedCommand(command: unknown): boolean {
  if (typeof command !== 'string') return false;
  const decoded = decodeEncodedCommand(command);
  const texts = decoded === null ? [command] : [command, decoded];
  return texts.some((t) => MANAGED_RE.test(t.replaceAll('\\', '/')));
}
