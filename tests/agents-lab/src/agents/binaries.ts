import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The agent CLIs the lab runs, as pinned in its package.json (through the workspace catalog). */
export const LAB_AGENTS = {
  claude: { pkg: '@anthropic-ai/claude-code', command: 'claude' },
  'claude-2.1.197': { pkg: 'claude-code-2.1.197', command: 'claude' },
  codex: { pkg: '@openai/codex', command: 'codex' },
  gemini: { pkg: '@google/gemini-cli', command: 'gemini' },
  opencode: { pkg: 'opencode-ai', command: 'opencode' },
  qwen: { pkg: '@qwen-code/qwen-code', command: 'qwen' },
  copilot: { pkg: '@github/copilot', command: 'copilot' },
  // Why: the platform package itself (see the catalog): the registry has no wrapper whose binary exists.
  droid: { pkg: '@factory/cli-linux-x64', command: 'droid' },
} as const;

/** One installed agent build: its command name, entry file and version. */
export interface AgentBinary {
  readonly build: keyof typeof LAB_AGENTS;
  /** The name a user types (`claude`, `codex`, `gemini`, `opencode`, `qwen`). */
  readonly command: string;
  /** What the `command` symlink in the lab's bin dir points at. */
  readonly target: string;
  /** The package's own version (package.json). */
  readonly version: string;
}

const labRequire = createRequire(new URL('../../package.json', import.meta.url));

function packageDir(pkg: string, from: NodeJS.Require = labRequire): string {
  return path.dirname(from.resolve(`${pkg}/package.json`));
}

/** `linux-x64`, `darwin-arm64`, … as the vendors name their platform packages. */
export function platformKey(): string {
  return `${process.platform}-${process.arch}`;
}

/**
 * Where a build's real entry point is. Claude Code ships its native binary in a platform package
 * (`@anthropic-ai/claude-code-<platform>/claude`), opencode in `opencode-<platform>/bin/opencode`, Droid in
 * `@factory/cli-<platform>/bin/droid` (the lab depends on that package directly), Copilot CLI in
 * `@github/copilot-<platform>/copilot`; the
 * lab links those directly instead of relying on the wrappers' postinstall (which pnpm does not run
 * here). Codex, Gemini and Qwen Code run through their Node launchers, as `npm i -g` users do.
 */
export function resolveAgentBinary(build: keyof typeof LAB_AGENTS, packagesDir?: string): AgentBinary {
  const spec = LAB_AGENTS[build];
  // Why: `drift` installs a release the lab does not pin under its own prefix (`npm i --prefix`);
  // the build then resolves from there, everything else stays the lab's.
  const from = packagesDir === undefined ? labRequire : createRequire(path.join(packagesDir, 'package.json'));
  const dir = packageDir(spec.pkg, from);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    version: string;
    bin?: Record<string, string> | string;
  };
  let target: string;
  if (spec.command === 'claude') {
    const wrapperRequire = createRequire(path.join(dir, 'package.json'));
    target = path.join(packageDir(`@anthropic-ai/claude-code-${platformKey()}`, wrapperRequire), 'claude');
  } else if (spec.command === 'opencode') {
    const wrapperRequire = createRequire(path.join(dir, 'package.json'));
    target = path.join(packageDir(`opencode-${platformKey()}`, wrapperRequire), 'bin', 'opencode');
  } else if (spec.command === 'copilot') {
    // Why: `@github/copilot-<platform>` exports only its binary (no `./package.json` subpath).
    const wrapperRequire = createRequire(path.join(dir, 'package.json'));
    target = wrapperRequire.resolve(`@github/copilot-${platformKey()}`);
  } else if (spec.command === 'droid') {
    target = path.join(dir, 'bin', 'droid');
  } else {
    const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[spec.command];
    if (!bin) throw new Error(`${spec.pkg} declares no ${spec.command} bin`);
    target = path.join(dir, bin);
  }
  if (!fs.existsSync(target)) throw new Error(`${spec.pkg}: ${target} is missing (was pnpm install run?)`);
  return { build, command: spec.command, target, version: manifest.version };
}

/**
 * Makes `dir` hold one executable per command (`claude`, `codex`, `gemini`) pointing at `binary`,
 * so a pane's argv is what a user types and its foreground process reads as the agent.
 */
export function linkAgentCommand(dir: string, binary: AgentBinary): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const link = path.join(dir, binary.command);
  fs.rmSync(link, { force: true });
  if (binary.target.endsWith('.js') || binary.target.endsWith('.mjs')) {
    // Why: a launcher script runs through this Node (the registry's bin shim does the same).
    fs.writeFileSync(link, `#!/bin/sh\nexec '${process.execPath}' '${binary.target}' "$@"\n`, { mode: 0o755 });
  } else {
    fs.symlinkSync(binary.target, link);
  }
  return link;
}
