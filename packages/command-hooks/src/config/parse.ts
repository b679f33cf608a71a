import path from 'node:path';
import type { CommandHook, Dialect } from '../hook.ts';
import { ConfigBuilder, type ConfigPlacement, type ParsedHooks } from './builder.ts';
import { parseClaudeConfig } from './claude.ts';
import { parseCursorConfig } from './cursor.ts';
import { parseJsonSource } from './json-source.ts';
import { parseOrcaConfig } from './orca.ts';

/**
 * Parse one hook config file's text in the given dialect. Never throws on content: a syntax
 * error yields no hooks and one positioned error; a zod-invalid entry drops only itself.
 * Without `placement`, hooks run in the project root two levels above `file`.
 *
 * @example
 * const { hooks, warnings, errors } = parseHookConfig('claude', text, '/repo/.claude/settings.json');
 */
export function parseHookConfig(
  dialect: Dialect,
  text: string,
  file: string,
  placement: Partial<ConfigPlacement> = {},
): ParsedHooks {
  const root = path.dirname(path.dirname(file));
  const full: ConfigPlacement = {
    file,
    label: placement.label ?? file,
    cwd: placement.cwd ?? root,
    projectDir: placement.projectDir ?? root,
  };
  const parsed = parseJsonSource(text);
  if (!parsed.ok) {
    return {
      hooks: [],
      warnings: [],
      errors: [
        {
          code: 'ORCA_CMDHOOKS_CONFIG_INVALID',
          file,
          path: '',
          line: parsed.line,
          column: parsed.column,
          message: parsed.message,
        },
      ],
    };
  }
  const b = new ConfigBuilder(dialect, full, parsed.source);
  if (dialect === 'claude') parseClaudeConfig(b, parsed.source.value);
  else if (dialect === 'cursor') parseCursorConfig(b, parsed.source.value);
  else parseOrcaConfig(b, parsed.source.value);
  return dedupeClaudeCommands(b.result, () => file);
}

/**
 * Claude runs a command repeated on one event once: later copies are dropped with a
 * `duplicate-hook` warning. Other dialects are untouched.
 */
export function dedupeClaudeCommands(
  input: ParsedHooks,
  fileOf: (hook: CommandHook) => string = (hook) => hook.source ?? '',
): ParsedHooks {
  const seen = new Set<string>();
  const out: ParsedHooks = { hooks: [], warnings: [...input.warnings], errors: [...input.errors] };
  for (const hook of input.hooks) {
    if (hook.dialect === 'claude') {
      const key = `${hook.wireEvent}\u0000${hook.command}`;
      if (seen.has(key)) {
        const pointer = hook.id.slice(hook.id.indexOf('#') + 1);
        out.warnings.push({
          code: 'duplicate-hook',
          file: fileOf(hook),
          path: pointer,
          message: `${pointer}: command already registered on ${hook.wireEvent}; it runs once`,
        });
        continue;
      }
      seen.add(key);
    }
    out.hooks.push(hook);
  }
  return out;
}
