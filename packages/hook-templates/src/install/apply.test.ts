import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyInstall } from './apply.ts';
import type { InstallIo } from './install-io.ts';

interface MemoryIo extends InstallIo {
  files: Map<string, string>;
  log: string[];
}

function memoryIo(initial: Record<string, string> = {}): MemoryIo {
  const files = new Map(Object.entries(initial));
  const log: string[] = [];
  return {
    files,
    log,
    async readText(path) {
      return files.get(path) ?? null;
    },
    async writeAtomic(path, content) {
      log.push(`write ${path}`);
      files.set(path, content);
    },
    async remove(path) {
      log.push(`remove ${path}`);
      files.delete(path);
    },
  };
}

const home = '/h';
const settings = '/h/.claude/settings.json';

describe('applyInstall', () => {
  it('writes every script before the config that launches it, and reports each file', async () => {
    const io = memoryIo();
    const [report] = await applyInstall(io, {
      home,
      agents: ['claude'],
      os: 'posix',
      versions: { claude: { version: '2.1.80', from: 'claude --version' } },
    });
    expect(report?.state).toBe('installed');
    expect(report?.version).toEqual({ version: '2.1.80', from: 'claude --version' });
    const configAt = io.log.indexOf(`write ${settings}`);
    expect(configAt).toBe(io.log.length - 1);
    expect(configAt).toBeGreaterThan(0);
    expect(io.log.slice(0, configAt).every((line) => line.startsWith('write /h/.orca/agent-hooks/'))).toBe(true);
    expect(report?.files.map((f) => f.action)).toEqual(report?.files.map(() => 'create'));
    expect(report?.files.map((f) => f.path).sort()).toEqual([...io.files.keys()].sort());
    const again = await applyInstall(io, { home, agents: ['claude'], os: 'posix' });
    expect(new Set(again[0]?.files.map((f) => f.action))).toEqual(new Set(['unchanged']));
  });

  it('dry run reads and reports but writes nothing', async () => {
    const io = memoryIo();
    const [report] = await applyInstall(io, { home, agents: ['claude'], os: 'posix', dryRun: true });
    expect(report?.files.length).toBeGreaterThan(1);
    expect(io.log).toEqual([]);
  });

  it('recomputes once when another process changes a config between read and write, keeping its edit', async () => {
    const io = memoryIo({ [settings]: '{}' });
    const read = io.readText.bind(io);
    let reads = 0;
    io.readText = async (path) => {
      if (path === settings && ++reads === 2) io.files.set(settings, '{"theme":"dark"}');
      return read(path);
    };
    const [report] = await applyInstall(io, { home, agents: ['claude'], os: 'posix' });
    expect(report?.error).toBeUndefined();
    expect(JSON.parse(io.files.get(settings) ?? '{}')).toMatchObject({ theme: 'dark', hooks: expect.any(Object) });
  });

  it('a config that keeps changing is refused with ORCA_HOOKS_CONFIG_BUSY; the next agent still installs', async () => {
    const io = memoryIo({ [settings]: '{}' });
    const read = io.readText.bind(io);
    let n = 0;
    io.readText = async (path) => {
      if (path === settings) io.files.set(settings, JSON.stringify({ n: n++ }));
      return read(path);
    };
    const [claude, gemini] = await applyInstall(io, { home, agents: ['claude', 'gemini'], os: 'posix' });
    expect(claude).toMatchObject({
      state: 'error',
      files: [{ path: settings, action: 'refused' }],
      error: { code: 'ORCA_HOOKS_CONFIG_BUSY' },
    });
    expect(io.log.some((line) => line.startsWith('write /h/.claude/'))).toBe(false);
    expect(gemini?.state).toBe('installed');
  });

  it('a failing write is reported as ORCA_HOOKS_IO with its message', async () => {
    const io = memoryIo();
    io.writeAtomic = async () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    const [report] = await applyInstall(io, { home, agents: ['claude'], os: 'posix' });
    expect(report?.error).toEqual({ code: 'ORCA_HOOKS_IO', message: 'EACCES: permission denied' });
  });

  it('an unparseable config is refused by path and left as it was', async () => {
    const io = memoryIo({ [settings]: '{ nope' });
    const [report] = await applyInstall(io, { home, agents: ['claude'], os: 'posix' });
    expect(report).toMatchObject({
      state: 'error',
      files: [{ path: settings, action: 'refused' }],
      error: { code: 'ORCA_HOOKS_CONFIG_UNPARSEABLE' },
    });
    expect(io.files.get(settings)).toBe('{ nope');
    expect(io.log).toEqual([]);
  });

  it('uninstall removes the scripts, reports them as remove, and leaves the user settings', async () => {
    const io = memoryIo({ [settings]: '{"theme":"dark"}' });
    await applyInstall(io, { home, agents: ['claude'], os: 'posix' });
    const scripts = [...io.files.keys()].filter((p) => p !== settings);
    io.log.length = 0;
    const [report] = await applyInstall(io, { home, agents: ['claude'], os: 'posix', uninstall: true });
    expect(report?.state).toBe('not_installed');
    expect(
      report?.files
        .filter((f) => f.action === 'remove')
        .map((f) => f.path)
        .sort(),
    ).toEqual(scripts.sort());
    expect([...io.files.keys()]).toEqual([settings]);
    expect(JSON.parse(io.files.get(settings) ?? '{}')).toMatchObject({ theme: 'dark' });
    expect(io.files.get(settings)).not.toContain('agent-hooks');
  });
});

describe('the ./install subpath is pure', () => {
  it('no module it reaches imports node:fs, node:child_process or node:os', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const seen = new Set<string>();
    const impure: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (!spec) continue;
        if (/^node:(fs|fs\/promises|child_process|os|net|http)$/.test(spec)) impure.push(`${file}: ${spec}`);
        if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      }
    };
    visit(join(here, 'index.ts'));
    expect(seen.size).toBeGreaterThan(5);
    expect(impure).toEqual([]);
    expect(seen.has(join(here, 'node-io.ts'))).toBe(false);
  });
});
