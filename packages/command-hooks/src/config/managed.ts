import { MANAGED_AGENTS, MANAGED_STEMS } from '@orca/shared/agents';

/** Agents whose status scripts @orca/hook-templates installs, and every managed script stem (the shared agent catalogue's). */
export { MANAGED_AGENTS, MANAGED_STEMS };

const ENCODED = /-e(?:c|nc|ncodedcommand)?\s+["']?([A-Za-z0-9+/=]{4,})/gi;

/** Decode every PowerShell `-EncodedCommand` argument (UTF-16LE base64) found in `command`. */
export function decodeEncodedCommands(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(ENCODED)) {
    if (m[1] !== undefined) out.push(Buffer.from(m[1], 'base64').toString('utf16le'));
  }
  return out;
}

/**
 * True when a handler command runs one of Orca's own status scripts (`agent-hooks/<stem>.` after
 * `\` → `/`, including inside an encoded PowerShell command): those are not user hooks.
 *
 * @example
 * isManagedHookCommand('/bin/sh "$HOME/.orca/agent-hooks/claude-hook.sh"'); // true
 * isManagedHookCommand('./agent-hooks/lint.sh'); // false
 */
export function isManagedHookCommand(command: string): boolean {
  const texts = [command, ...decodeEncodedCommands(command)].map((t) => t.replaceAll('\\', '/').toLowerCase());
  return texts.some((t) => MANAGED_STEMS.some((stem) => t.includes(`agent-hooks/${stem}.`)));
}
