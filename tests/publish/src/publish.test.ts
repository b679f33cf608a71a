import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binEntries, exportTargets, type PackageManifest, publicPackages, WORKSPACE_ROOT } from './public-packages.ts';

// Why: packing six packages and an npm install that compiles better-sqlite3 and node-pty take
// minutes on a shared 2-core machine; each step runs once, in a beforeAll.
const PACK_TIMEOUT_MS = 5 * 60_000;
const INSTALL_TIMEOUT_MS = 15 * 60_000;
const CHILD_TIMEOUT_MS = 60_000;

const packages = publicPackages();
const versionOf = new Map(packages.map((p) => [p.manifest.name, p.manifest.version]));
const require = createRequire(import.meta.url);

/**
 * Why `esm-only`: every package is ESM only by design (../shared/CONVENTIONS.md 1: `"type":
 * "module"`, no `require` condition, node >= 20.11). That profile still checks the resolutions an
 * ESM consumer uses (node16 from ESM, bundler) and leaves out node10 and node16-from-CJS, where an
 * ESM-only package is "wrong" by construction (CJS callers use `import()`). `node16` would still
 * fail every entry on CJSResolvesToESM.
 */
const ATTW_PROFILE = 'esm-only';
const ATTW_IGNORED_RESOLUTIONS = ['node10', 'node16-cjs'];

/** The environment of npm and of the installed bins: the suite's own minus what pnpm/vitest add. */
function outsideEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    // Why: NODE_OPTIONS may carry `--conditions=orca-source`; npm_package_*/npm_lifecycle_* and
    // pnpm's user agent describe this workspace, not the outside project.
    if (/^(npm_package_|npm_lifecycle_|npm_config_user_agent$|NODE_OPTIONS$|PNPM_|INIT_CWD$)/.test(key)) {
      delete env[key];
    }
  }
  return { ...env, npm_config_nodedir: nodeHeadersDir(), ...extra };
}

/** Where node-gyp finds Node's headers (as .ci/run: the running node's prefix, else /usr). */
function nodeHeadersDir(): string {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir;
  const prefix = path.dirname(path.dirname(fs.realpathSync(process.execPath)));
  return fs.existsSync(path.join(prefix, 'include/node/node.h')) ? prefix : '/usr';
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }) {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? outsideEnv(),
    encoding: 'utf8',
    timeout: options.timeout ?? CHILD_TIMEOUT_MS,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function tarList(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

function tarManifest(tarball: string): PackageManifest {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
}

function walkFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walkFiles(full, base) : [path.relative(base, full)];
  });
}

let work = '';
const tarballs = new Map<string, string>();

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'orca-publish-'));
  const packDir = path.join(work, 'tarballs');
  fs.mkdirSync(packDir);
  for (const pkg of packages) {
    const packed = run('pnpm', ['pack', '--pack-destination', packDir, '--json'], {
      cwd: pkg.dir,
      env: process.env,
      timeout: PACK_TIMEOUT_MS,
    });
    if (packed.status !== 0) throw new Error(`pnpm pack of ${pkg.manifest.name} failed:\n${packed.stderr}`);
    const report = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('{'))) as { filename: string };
    tarballs.set(pkg.manifest.name, report.filename);
  }
}, PACK_TIMEOUT_MS);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('packed tarballs', () => {
  it('cover every public package of packages/ and apps/', () => {
    expect([...tarballs.keys()].sort()).toEqual(
      expect.arrayContaining([
        '@orca/agent-status',
        '@orca/command-hooks',
        '@orca/hook-templates',
        '@orca/host',
        '@orca/relay',
        '@orca/wire',
      ]),
    );
    for (const file of tarballs.values()) expect(fs.statSync(file).size).toBeGreaterThan(0);
  });

  for (const pkg of packages) {
    const name = pkg.manifest.name;

    it(`${name}: the packed manifest ships publishConfig.exports, real versions, and every target it names`, () => {
      const tarball = tarballs.get(name) ?? '';
      const manifest = tarManifest(tarball);
      const files = new Set(tarList(tarball));
      const targets = [...exportTargets(manifest.exports), ...Object.values(binEntries(manifest))];
      const ranges = Object.entries(manifest.dependencies ?? {});
      expect({
        exports: manifest.exports,
        // Why: publint does not look at custom conditions; a leftover `orca-source` would point at src/.
        mentionsOrcaSource: JSON.stringify(manifest.exports).includes('orca-source'),
        missingTargets: targets.filter((t) => !files.has(`package/${t.replace(/^\.\//, '')}`)),
        unresolvedRanges: ranges.filter(([, range]) => /^(workspace|catalog):/.test(range)),
        internalRanges: ranges.filter(([dep]) => versionOf.has(dep)),
      }).toEqual({
        exports: pkg.manifest.publishConfig?.exports,
        mentionsOrcaSource: false,
        missingTargets: [],
        unresolvedRanges: [],
        internalRanges: Object.keys(pkg.manifest.dependencies ?? {})
          .filter((dep) => versionOf.has(dep))
          .map((dep) => [dep, `^${versionOf.get(dep)}`]),
      });
    });

    it(`${name}: publint (strict) reports nothing`, async () => {
      const bytes = new Uint8Array(fs.readFileSync(tarballs.get(name) ?? ''));
      const result = await publint({ pack: { tarball: bytes.buffer }, strict: true, level: 'suggestion' });
      expect(result.messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, result.pkg)}`)).toEqual([]);
    });

    it(`${name}: attw (profile ${ATTW_PROFILE}) reports no problem`, () => {
      const cliManifest = require('@arethetypeswrong/cli/package.json') as PackageManifest;
      const cli = path.join(
        path.dirname(require.resolve('@arethetypeswrong/cli/package.json')),
        binEntries(cliManifest).attw ?? '',
      );
      const tarball = tarballs.get(name) ?? '';
      const args = [cli, tarball, '--profile', ATTW_PROFILE, '--format', 'json', '--no-definitely-typed'];
      const checked = run(process.execPath, args, { cwd: work });
      const report = JSON.parse(checked.stdout) as { problems?: Record<string, { resolutionKind?: string }[]> };
      const problems = Object.values(report.problems ?? {})
        .flat()
        .filter((p) => !(p.resolutionKind && ATTW_IGNORED_RESOLUTIONS.includes(p.resolutionKind)));
      expect({ status: checked.status, problems }).toEqual({ status: 0, problems: [] });
    });
  }
});

describe('installed with plain npm into a project outside the workspace', () => {
  let project = '';
  const installed = (name: string) => path.join(project, 'node_modules', name);

  beforeAll(() => {
    project = path.join(work, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      `${JSON.stringify(
        {
          name: 'orca-publish-probe',
          private: true,
          type: 'module',
          // Why: npm 11 runs no dependency's install script it was not told to allow; the host's
          // CLI loads both native addons at start, so they build here as they would for a user.
          allowScripts: { 'better-sqlite3': true, 'node-pty': true },
        },
        null,
        2,
      )}\n`,
    );
    // Why: all tarballs in one install, so `^<version>` ranges between our packages resolve to
    // these tarballs and never to the registry; third-party dependencies come from the registry.
    const npm = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs.values()], {
      cwd: project,
      timeout: INSTALL_TIMEOUT_MS,
    });
    if (npm.status !== 0) throw new Error(`npm install failed (exit ${npm.status}):\n${npm.stdout}\n${npm.stderr}`);
  }, INSTALL_TIMEOUT_MS);

  it('lives outside the workspace and has every package from its tarball', () => {
    expect(path.relative(WORKSPACE_ROOT, project).startsWith('..')).toBe(true);
    const versions = Object.fromEntries(
      packages.map(({ manifest }) => [
        manifest.name,
        JSON.parse(fs.readFileSync(path.join(installed(manifest.name), 'package.json'), 'utf8')).version,
      ]),
    );
    expect(versions).toEqual(Object.fromEntries(versionOf));
    // Why: an internal range that missed its tarball would nest a registry copy under a dependent.
    const nested = packages.flatMap(({ manifest }) =>
      packages
        .map((inner) => path.join(installed(manifest.name), 'node_modules', inner.manifest.name))
        .filter((p) => fs.existsSync(p)),
    );
    expect(nested).toEqual([]);
  });

  for (const pkg of packages) {
    const name = pkg.manifest.name;

    it(`${name}: every subpath export imports with plain node`, () => {
      const subpaths = Object.keys(pkg.manifest.publishConfig?.exports ?? {});
      const outcome = Object.fromEntries(
        subpaths.map((subpath) => {
          const specifier = subpath === '.' ? name : `${name}${subpath.slice(1)}`;
          const code = subpath.endsWith('.json')
            ? `const m = await import(${JSON.stringify(specifier)}, { with: { type: 'json' } }); console.log(m.default.name === ${JSON.stringify(name)} ? 'ok' : 'wrong manifest');`
            : `const m = await import(${JSON.stringify(specifier)}); console.log(Object.keys(m).length > 0 ? 'ok' : 'no exports');`;
          const imported = run(process.execPath, ['--input-type=module', '-e', code], { cwd: project });
          return [subpath, imported.status === 0 ? imported.stdout.trim() : imported.stderr.trim()];
        }),
      );
      expect(outcome).toEqual(Object.fromEntries(subpaths.map((s) => [s, 'ok'])));
    });

    for (const bin of Object.keys(binEntries(pkg.manifest))) {
      it(`${name}: bin ${bin} --version prints ${pkg.manifest.version}`, () => {
        const printed = run(path.join(project, 'node_modules', '.bin', bin), ['--version'], { cwd: project });
        if (bin === 'orca-relay') {
          // Why: the relay answers its host with one JSON line; `+source` marks the unbundled dist
          // entry (the guest bundle puts its own hash there).
          expect({ status: printed.status, line: JSON.parse(printed.stdout) }).toEqual({
            status: 0,
            line: { name: 'orca-relay', version: `${pkg.manifest.version}+source`, protocol: expect.any(String) },
          });
        } else {
          expect({ status: printed.status, stdout: printed.stdout }).toEqual({
            status: 0,
            stdout: `${pkg.manifest.version}\n`,
          });
        }
      });
    }
  }

  it('@orca/relay: the shipped guest bundle runs on its own and reports the package version plus its hash', () => {
    const bundle = path.join(installed('@orca/relay'), 'dist', 'guest-relay.cjs');
    const printed = run(process.execPath, [bundle, '--version'], { cwd: os.tmpdir() });
    expect({ status: printed.status, line: JSON.parse(printed.stdout) }).toEqual({
      status: 0,
      line: {
        name: 'orca-relay',
        version: expect.stringMatching(
          new RegExp(`^${versionOf.get('@orca/relay')?.replaceAll('.', '\\.')}\\+[0-9a-f]{12}$`),
        ),
        protocol: expect.any(String),
      },
    });
  });

  it('orca-hooks install writes every agent its report names into a temp home, and verify passes', () => {
    const home = fs.mkdtempSync(path.join(work, 'home-'));
    const env = outsideEnv({ HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') });
    const orcaHooks = path.join(project, 'node_modules', '.bin', 'orca-hooks');
    const install = run(orcaHooks, ['install', '--home', home, '--json'], { cwd: project, env });
    expect({ status: install.status, stderr: install.stderr }).toEqual({ status: 0, stderr: '' });
    const report = JSON.parse(install.stdout) as {
      home: string;
      dryRun: boolean;
      agents: { agent: string; state: string; files: { path: string; action: string; mode: number }[] }[];
    };

    const agentIds = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { AGENT_IDS } = await import('@orca/hook-templates/agents'); console.log(JSON.stringify(AGENT_IDS));`,
      ],
      { cwd: project },
    );
    const reported = report.agents.flatMap((a) => a.files.map((f) => path.relative(home, f.path)));
    expect({
      home: report.home,
      dryRun: report.dryRun,
      agents: report.agents.map((a) => [a.agent, a.state]),
      filesOnDisk: walkFiles(home).sort(),
    }).toEqual({
      home,
      dryRun: false,
      agents: (JSON.parse(agentIds.stdout) as string[]).map((id) => [id, 'installed']),
      filesOnDisk: [...new Set(reported)].sort(),
    });

    const scripts = report.agents.flatMap((a) => a.files.filter((f) => f.path.endsWith('.sh')));
    expect(scripts.length).toBe(report.agents.length);
    for (const script of scripts) {
      expect(fs.statSync(script.path).mode & 0o777).toBe(script.mode);
      expect(fs.readFileSync(script.path, 'utf8').startsWith('#!/bin/sh\n')).toBe(true);
    }
    // Why: configs name the script through $HOME, so a moved home keeps working.
    const claudeSettings = JSON.parse(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const commands = Object.values(claudeSettings.hooks).flatMap((groups) =>
      groups.flatMap((g) => g.hooks.map((h) => h.command)),
    );
    expect(commands.length).toBeGreaterThan(0);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: POSIX shell parameter expansion, not a JS template
    const scriptInHome = '"${HOME-}"/.orca/agent-hooks/claude-hook.sh';
    expect(commands.filter((c) => !c.includes(scriptInHome))).toEqual([]);

    // Why: verify runs every agent's script in five shells against live and dead ports (about a
    // minute on a loaded 2-core machine); the default child timeout would cut it off.
    const verify = run(orcaHooks, ['verify', '--home', home, '--json'], { cwd: project, env, timeout: 300_000 });
    expect(verify.stdout, `verify exited ${verify.status}: ${verify.stderr}`).toMatch(/^\{/);
    const verdict = JSON.parse(verify.stdout) as { ok: boolean; checks: { id: string; ok: boolean }[] };
    expect({
      status: verify.status,
      ok: verdict.ok,
      failed: verdict.checks.filter((c) => !c.ok).map((c) => c.id),
    }).toEqual({ status: 0, ok: true, failed: [] });
  }, 360_000);

  it('orca demo runs end to end from the installed package: the shipped screen worker parses the pane', () => {
    const orca = path.join(project, 'node_modules', '.bin', 'orca');
    const demo = run(orca, ['demo', '--json'], { cwd: project, timeout: 120_000 });
    const events = demo.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { kind: string; ok?: boolean; code?: string; verdict?: { status: string } });
    // Why: the refused dispatch at the approval menu needs the rendered screen, which only the worker parses.
    expect({
      status: demo.status,
      stderr: demo.stderr,
      refused: events.filter((e) => e.kind === 'inject' && e.ok === false).map((e) => e.code),
      statuses: [
        ...new Set(events.filter((e) => e.kind === 'verdict' && e.verdict?.status).map((e) => e.verdict?.status)),
      ].sort(),
      done: events.at(-1),
    }).toEqual({
      status: 0,
      stderr: '',
      refused: ['agent_prompt_blocked'],
      statuses: ['idle', 'permission', 'working'],
      done: expect.objectContaining({ kind: 'done', ok: true }),
    });
  });

  it('orca start --web from the installed package serves the page it ships, with its panes in the shipped keeper', async () => {
    const orca = path.join(project, 'node_modules', '.bin', 'orca');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orca-publish-web-'));
    const child = spawn(orca, ['--json', '--data-dir', dataDir, 'start', '--web', '127.0.0.1:0'], {
      cwd: project,
      env: outsideEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    try {
      const ready = await new Promise<{ keeperPid: number | null; web: { origin: string; pairingUrl: string } }>(
        (resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no ready line: ${stdout} ${stderr}`)), 60_000);
          child.stdout.on('data', () => {
            const line = stdout.split('\n').find((l) => l.startsWith('{"ready"'));
            if (!line) return;
            clearTimeout(timer);
            resolve((JSON.parse(line) as { ready: never }).ready);
          });
          child.once('exit', (code) => reject(new Error(`orca start exited ${code}: ${stderr}`)));
        },
      );
      expect(ready.keeperPid).toEqual(expect.any(Number));
      const page = await fetch(`${ready.web.origin}/`);
      const html = await page.text();
      expect({ status: page.status, app: html.includes('<div id="app">') }).toEqual({ status: 200, app: true });
      const scripts = [...html.matchAll(/src="\.?\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect((await fetch(`${ready.web.origin}/${script}`)).status).toBe(200);
      expect((await fetch(`${ready.web.origin}/favicon.svg`)).status).toBe(200);
    } finally {
      const stop = run(orca, ['--data-dir', dataDir, 'stop', '--all'], { cwd: project });
      // Why: on a CI machine running three suites at once, a stop can outlast `orca stop`'s own
      // 20 s wait; what must hold is that the host and its keeper end.
      const exited = await new Promise<boolean>((resolve) => {
        if (child.exitCode !== null) return resolve(true);
        const timer = setTimeout(() => resolve(false), 60_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      expect(exited, `${stop.stdout}${stop.stderr}`).toBe(true);
      if (stop.status !== 0) expect(stop.stderr).toMatch(/did not stop within/);
    }
  }, 120_000);
});
