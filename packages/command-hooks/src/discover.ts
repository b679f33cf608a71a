import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ParsedHooks } from './config/builder.ts';
import type { ConfigIssue } from './config/issues.ts';
import { dedupeClaudeCommands, parseHookConfig } from './config/parse.ts';
import type { CommandHook, Dialect } from './hook.ts';

/** File access discovery needs (injectable). */
export interface ConfigFileSystem {
  readFile(file: string): Promise<string>;
  realpath(file: string): Promise<string>;
}

const nodeFileSystem: ConfigFileSystem = {
  readFile: (file) => readFile(file, 'utf8'),
  realpath: (file) => realpath(file),
};

/** Result of {@link discoverHooks}. */
export interface DiscoveredHooks {
  hooks: CommandHook[];
  warnings: ConfigIssue[];
  errors: ConfigIssue[];
}

interface Candidate {
  file: string;
  dialect: Dialect;
  label: string;
  cwd: string;
}

function candidates(root: string, home: string | undefined): Candidate[] {
  const list: Candidate[] = [
    { file: path.join(root, '.orca', 'hooks.json'), dialect: 'orca', label: '.orca/hooks.json', cwd: root },
    { file: path.join(root, '.claude', 'settings.json'), dialect: 'claude', label: '.claude/settings.json', cwd: root },
    {
      file: path.join(root, '.claude', 'settings.local.json'),
      dialect: 'claude',
      label: '.claude/settings.local.json',
      cwd: root,
    },
    { file: path.join(root, '.cursor', 'hooks.json'), dialect: 'cursor', label: '.cursor/hooks.json', cwd: root },
  ];
  if (home !== undefined) {
    list.push(
      {
        file: path.join(home, '.claude', 'settings.json'),
        dialect: 'claude',
        label: '~/.claude/settings.json',
        cwd: root,
      },
      {
        file: path.join(home, '.cursor', 'hooks.json'),
        dialect: 'cursor',
        label: '~/.cursor/hooks.json',
        cwd: path.join(home, '.cursor'),
      },
    );
  }
  return list;
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * Find and parse every hook config of a project and a home, in run order: `.orca/hooks.json`,
 * `.claude/settings.json`, `.claude/settings.local.json`, `.cursor/hooks.json`, then the home's
 * `.claude/settings.json` and `.cursor/hooks.json`. The dialect comes from the path; a missing
 * file is silent; a realpath already read is skipped. Never throws on content.
 *
 * @example
 * const { hooks, warnings, errors } = await discoverHooks('/repo', { home: os.homedir() });
 */
export async function discoverHooks(
  root: string,
  options: { home?: string; fs?: ConfigFileSystem } = {},
): Promise<DiscoveredHooks> {
  const fs = options.fs ?? nodeFileSystem;
  const absRoot = path.resolve(root);
  const home = options.home === undefined ? undefined : path.resolve(options.home);
  const seen = new Set<string>();
  const fileByLabel = new Map<string, string>();
  const all: ParsedHooks = { hooks: [], warnings: [], errors: [] };
  for (const c of candidates(absRoot, home)) {
    let real: string;
    let text: string;
    try {
      real = await fs.realpath(c.file);
      if (seen.has(real)) continue;
      seen.add(real);
      text = await fs.readFile(c.file);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      all.errors.push({
        code: 'ORCA_CMDHOOKS_CONFIG_UNREADABLE',
        file: c.file,
        path: '',
        message: `cannot read ${c.file}: ${code ?? (error instanceof Error ? error.message : String(error))}`,
      });
      continue;
    }
    fileByLabel.set(c.label, c.file);
    const parsed = parseHookConfig(c.dialect, text, c.file, { label: c.label, cwd: c.cwd, projectDir: absRoot });
    all.hooks.push(...parsed.hooks);
    all.warnings.push(...parsed.warnings);
    all.errors.push(...parsed.errors);
  }
  return dedupeClaudeCommands(all, (hook) => fileByLabel.get(hook.source ?? '') ?? hook.source ?? '');
}
