/**
 * The root README's "Adding an agent", followed for a test-only agent in a scratch copy of the
 * packages the guide names (plus relay, which must follow with no edit): the files edited are the
 * guide's, at most four; with only the catalogue edited `tsc` names the two tables still lacking
 * the id; with all edits it compiles; and the agent then installs, its hook posts through real sh
 * and curl into the relay's listener, and the status engine reads it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const AGENT = 'example-agent';
/** Package dirs copied (sources and manifest); relay is copied to prove it needs no edit. */
const COPIED = ['tooling/shared', 'packages/agent-status', 'packages/hook-templates', 'packages/relay'] as const;
/** Third-party modules the copied sources import, linked from the package that declares each. */
const LINKED: readonly [string, string][] = [
  ['zod', 'packages/agent-status'],
  ['commander', 'packages/agent-status'],
  ['jsonc-parser', 'packages/hook-templates'],
  ['smol-toml', 'packages/hook-templates'],
  ['content-type', 'packages/relay'],
  ['@orca/wire', 'packages/relay'],
  ['@types/node', 'packages/relay'],
];
const GUIDE_TIMEOUT_MS = 300_000;
/** The check script's own bound, below the test's so the test reports the child's failure. */
const CHECK_TIMEOUT_MS = 240_000;

/** One edit of the guide: insert `text` after the first `anchor` (after `after`, when given). */
interface GuideEdit {
  file: string;
  after?: string;
  anchor: string;
  text: string;
}

const CATALOGUE_EDITS: GuideEdit[] = [
  {
    file: 'tooling/shared/agents.ts',
    after: 'export const HOOK_SOURCES = [\n',
    anchor: '\n] as const;',
    text: `\n  '${AGENT}',`,
  },
  {
    file: 'tooling/shared/agents.ts',
    after: 'export const MANAGED_AGENTS = [\n',
    anchor: '\n] as const;',
    text: `\n  '${AGENT}',`,
  },
  {
    file: 'tooling/shared/agents.ts',
    anchor: 'const ENTRIES: Readonly<Record<CatalogueAgentId, AgentFactsEntry>> = {\n',
    text: `  '${AGENT}': named('${AGENT}'),\n`,
  },
];
const TABLE_EDITS: GuideEdit[] = [
  {
    file: 'packages/agent-status/src/hooks/agent-hooks.ts',
    anchor: 'export const AGENT_HOOKS: Readonly<Record<AgentId, AgentHooks>> = {\n',
    text: `  '${AGENT}': CLAUDE_HOOKS,\n`,
  },
  {
    file: 'packages/hook-templates/src/agents/registry.ts',
    anchor: 'export const AGENTS: Readonly<Record<AgentId, AgentDescriptor>> = {\n',
    text: `  '${AGENT}': {
    ...base,
    id: '${AGENT}',
    source: '${AGENT}',
    scriptStem: '${AGENT}',
    events: ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'],
    toolEvents: ['PreToolUse', 'PostToolUse'],
    toolMatcher: '*',
    configShape: 'claude',
    configPath: ({ join, home, env }) => join(env.EXAMPLE_AGENT_HOME || join(home, '.example-agent'), 'settings.json'),
    configEnv: ['EXAMPLE_AGENT_HOME'],
  },
`,
  },
];

function applyEdit(root: string, edit: GuideEdit): void {
  const path = join(root, edit.file);
  const text = readFileSync(path, 'utf8');
  const from = edit.after === undefined ? 0 : text.indexOf(edit.after);
  const at = text.indexOf(edit.anchor, from);
  if (from < 0 || at < 0) throw new Error(`guide anchor not found in ${edit.file}: ${edit.after ?? edit.anchor}`);
  const end = edit.after === undefined ? at + edit.anchor.length : at;
  writeFileSync(path, text.slice(0, end) + edit.text + text.slice(end));
}

/** The files the README's guide lists as its numbered steps. */
function guideFiles(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Adding an agent');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1] ?? '');
}

function scratchCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'orca-guide-'));
  for (const dir of COPIED) {
    cpSync(join(ROOT, dir), join(root, dir), {
      recursive: true,
      filter: (src) => !/[/\\](node_modules|dist|test|bench|coverage|\.turbo|\.vitest-report\.json)$/.test(src),
    });
  }
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '@orca'), { recursive: true });
  mkdirSync(join(modules, '@types'), { recursive: true });
  symlinkSync(join(root, 'tooling/shared'), join(modules, '@orca/shared'), 'dir');
  for (const [name, owner] of LINKED) {
    symlinkSync(realpathSync(join(ROOT, owner, 'node_modules', name)), join(modules, name), 'dir');
  }
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      extends: join(ROOT, 'tooling/config/tsconfig.base.json'),
      include: COPIED.map((dir) => (dir === 'tooling/shared' ? `${dir}/*.ts` : `${dir}/src`)),
      exclude: ['**/*.test.ts', '**/*.test-helper.ts', '**/*.config.ts'],
    }),
  );
  cpSync(join(ROOT, 'tests/contracts/fixtures/adding-an-agent/check.ts'), join(root, 'check.ts'));
  writeFileSync(join(root, 'package.json'), '{ "private": true, "type": "module" }\n');
  return root;
}

function typecheck(root: string): { code: number | null; output: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('adding an agent, as the README says', () => {
  let root = '';
  const applied = new Set<GuideEdit>();
  const apply = (edits: readonly GuideEdit[]) => {
    for (const edit of edits) {
      if (applied.has(edit)) continue;
      applyEdit(root, edit);
      applied.add(edit);
    }
  };
  beforeAll(() => {
    root = scratchCopy();
  });
  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true });
  });

  it('the guide names at most 4 files, and they are the ones its steps edit', () => {
    const listed = guideFiles();
    const edited = [...new Set([...CATALOGUE_EDITS, ...TABLE_EDITS].map((e) => e.file))];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThanOrEqual(4);
    expect(edited.sort()).toEqual([...listed].sort());
  });

  it(
    'with only the catalogue edited, tsc names the two tables that lack the id; with all three it compiles',
    () => {
      apply(CATALOGUE_EDITS);
      const partial = typecheck(root);
      expect(partial.code).not.toBe(0);
      const failing = new Set([...partial.output.matchAll(/^(\S+?\.ts)\(\d+,\d+\): error/gm)].map((m) => m[1]));
      expect([...failing].sort()).toEqual(TABLE_EDITS.map((e) => e.file).sort());

      apply(TABLE_EDITS);
      const full = typecheck(root);
      expect(full.output).toBe('');
      expect(full.code).toBe(0);
    },
    GUIDE_TIMEOUT_MS,
  );

  it(
    'the new agent installs, posts through real sh and curl into the relay listener, and the status engine reads it',
    () => {
      apply([...CATALOGUE_EDITS, ...TABLE_EDITS]);
      const out = execFileSync(
        process.execPath,
        ['--conditions=orca-source', '--import', 'tsx', join(root, 'check.ts'), AGENT],
        {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: CHECK_TIMEOUT_MS,
        },
      );
      const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
      expect(result.installState).toBe('installed');
      expect(result.configFile).toMatch(/\/\.example-agent\/settings\.json$/);
      expect(result.exits).toEqual([0, 0]);
      expect(result.received).toEqual([
        { source: AGENT, paneKey: 'guide:0b6e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b', event: 'UserPromptSubmit' },
        { source: AGENT, paneKey: 'guide:0b6e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b', event: 'Stop' },
      ]);
      expect(result.states).toEqual(['working', 'done']);
      expect(result.promptSubmit).toBe(true);
      expect(result.recognised).toBe(AGENT);
      expect(result.title).toMatchObject({ agent: AGENT, status: 'working' });
      expect(result.version).toEqual({ agent: AGENT, version: '1.2.3', command: `${AGENT} --version` });
      expect(result.verify.failed).toEqual([]);
      expect(result.verify.ok).toBe(true);
      expect(result.verify.checks).toBeGreaterThan(0);
    },
    GUIDE_TIMEOUT_MS,
  );
});
