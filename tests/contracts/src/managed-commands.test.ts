import { isManagedHookCommand, MANAGED_STEMS as RUNNER_STEMS } from '@orca/command-hooks';
import {
  AGENT_IDS,
  getAgent,
  installAgent,
  isManagedCommand,
  MANAGED_STEMS as TEMPLATE_STEMS,
} from '@orca/hook-templates';
import fc from 'fast-check';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';

function parseConfig(path: string, text: string): unknown {
  if (path.endsWith('.toml')) return parseToml(text);
  if (path.endsWith('.json') || path.endsWith('.jsonc')) return parseJsonc(text);
  return undefined;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

// Why: Windows handlers carry the script path inside a base64 `-EncodedCommand`, so a handler
// is recognised by its launcher shape as well as by a literal `agent-hooks` path.
function looksLikeHandler(s: string): boolean {
  return s.includes('agent-hooks') || /-encodedcommand|powershell(\.exe)?\s|cmd(\.exe)?\s+\/[cd]/i.test(s);
}

describe('hook-templates installs only commands the command-hook runner recognises as managed', () => {
  it('both packages list the same managed stems', () => {
    expect([...RUNNER_STEMS].sort()).toEqual([...TEMPLATE_STEMS].sort());
  });

  for (const os of ['posix', 'windows'] as const) {
    // Why: opencode's hooks are a plugin file, not commands in a hook config the runner reads.
    for (const agent of AGENT_IDS.filter((a) => getAgent(a).configShape !== 'opencode-plugin')) {
      it(`${agent} on ${os}: every installed handler command is managed for both packages`, () => {
        const home = os === 'posix' ? '/home/user' : 'C:\\Users\\user';
        const result = installAgent({ agent, os, home, configs: {} });
        const commands = result.files.flatMap((f) => strings(parseConfig(f.path, f.content))).filter(looksLikeHandler);
        expect(commands.length).toBeGreaterThan(0);
        expect(commands.filter((c) => !isManagedCommand(c))).toEqual([]);
        expect(commands.filter((c) => !isManagedHookCommand(c))).toEqual([]);
      });
    }
  }

  it('a user command is managed for neither package unless it names a managed stem', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (command) => {
        fc.pre(!command.toLowerCase().includes('agent-hooks'));
        expect([isManagedCommand(command), isManagedHookCommand(command)]).toEqual([false, false]);
      }),
    );
    expect(isManagedHookCommand('./agent-hooks/lint.sh')).toBe(false);
    expect(isManagedCommand('./agent-hooks/lint.sh')).toBe(false);
  });
});
