import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/fixtures.ts';
import { type RecordingServer, startRecordingServer } from '../../test/support/server.ts';
import { AGENTS } from '../agents/registry.ts';
import { decodeFormBody } from '../verify/form.ts';
import { applyInstall } from './apply.ts';
import { agentStatus, installAgent, uninstallAgent } from './install.ts';
import { nodeInstallIo } from './node-io.ts';
import { OPENCODE_PLUGIN_EVENTS } from './opencode-events.ts';
import { OPENCODE_PLUGIN_MARKER, opencodePluginLaunch, opencodePluginSource } from './opencode-plugin.ts';
import { configPath } from './paths.ts';

const d = AGENTS.opencode;
const HOME = '/home/u';
const PLUGIN = configPath(d, 'posix', HOME);

describe('opencode: plugin-shaped install (pure)', () => {
  it('writes the script, then a plugin that starts it; a re-install changes nothing', () => {
    const first = installAgent({ agent: 'opencode', os: 'posix', home: HOME, configs: {} });
    expect(PLUGIN).toBe('/home/u/.config/opencode/plugins/orca-status.js');
    expect(first.state).toBe('installed');
    expect(first.files.map((f) => [f.path, f.action])).toEqual([
      ['/home/u/.orca/agent-hooks/opencode-hook.sh', 'create'],
      [PLUGIN, 'create'],
    ]);
    const plugin = first.files[1]?.content ?? '';
    expect(plugin.startsWith(OPENCODE_PLUGIN_MARKER)).toBe(true);
    expect(plugin).toContain(
      JSON.stringify(opencodePluginLaunch('posix', '/home/u/.orca/agent-hooks/opencode-hook.sh')),
    );
    const configs = Object.fromEntries(first.files.map((f) => [f.path, f.content]));
    const again = installAgent({ agent: 'opencode', os: 'posix', home: HOME, configs });
    expect(again.files.map((f) => f.action)).toEqual(['unchanged', 'unchanged']);
    expect(agentStatus({ agent: 'opencode', os: 'posix', home: HOME, configs })).toBe('installed');
  });

  it('honours XDG_CONFIG_HOME as opencode does, and Windows starts the PowerShell script', () => {
    expect(configPath(d, 'posix', HOME, { XDG_CONFIG_HOME: '/x/cfg' })).toBe('/x/cfg/opencode/plugins/orca-status.js');
    const win = installAgent({ agent: 'opencode', os: 'windows', home: 'C:\\Users\\u', configs: {} });
    expect(win.files.map((f) => f.path)).toEqual([
      'C:\\Users\\u\\.orca\\agent-hooks\\opencode-hook.ps1',
      'C:\\Users\\u\\.config\\opencode\\plugins\\orca-status.js',
    ]);
    expect(win.files[1]?.content).toContain('"-File","C:\\\\Users\\\\u\\\\.orca\\\\agent-hooks\\\\opencode-hook.ps1"');
  });

  it("reads an older plugin of Orca's as partial, a user's file as an error it never overwrites or removes", () => {
    const stale = `${OPENCODE_PLUGIN_MARKER}\n// an older release\n`;
    expect(agentStatus({ agent: 'opencode', os: 'posix', home: HOME, configs: { [PLUGIN]: stale } })).toBe('partial');
    const fresh = installAgent({ agent: 'opencode', os: 'posix', home: HOME, configs: { [PLUGIN]: stale } });
    expect(fresh.files.find((f) => f.path === PLUGIN)?.action).toBe('update');

    const mine = 'export const Mine = async () => ({});\n';
    expect(agentStatus({ agent: 'opencode', os: 'posix', home: HOME, configs: { [PLUGIN]: mine } })).toBe('error');
    expect(() => installAgent({ agent: 'opencode', os: 'posix', home: HOME, configs: { [PLUGIN]: mine } })).toThrow(
      expect.objectContaining({ code: 'ORCA_HOOKS_CONFIG_SHAPE' }),
    );
    const removal = uninstallAgent({ agent: 'opencode', os: 'posix', home: HOME, configs: { [PLUGIN]: mine } });
    expect(removal.remove).toEqual(['/home/u/.orca/agent-hooks/opencode-hook.sh']);
  });
});

describe('opencode: install and uninstall on disk', () => {
  it("round trip leaves opencode.json and the user's own plugins byte-identical", async () => {
    const home = tempDir('orca-ht-opencode-');
    const dir = join(home, '.config', 'opencode');
    mkdirSync(join(dir, 'plugins'), { recursive: true });
    const userConfig = '{\n  // mine\n  "theme": "tokyonight",\n  "plugin": ["opencode-wakatime"]\n}\n';
    const userPlugin = 'export const Notify = async () => ({ event: async () => {} });\n';
    writeFileSync(join(dir, 'opencode.json'), userConfig);
    writeFileSync(join(dir, 'plugins', 'notify.js'), userPlugin);

    const [installed] = await applyInstall(nodeInstallIo, { home, agents: ['opencode'], os: 'posix' });
    expect(installed?.state).toBe('installed');
    const plugin = configPath(d, 'posix', home);
    expect(readFileSync(plugin, 'utf8').startsWith(OPENCODE_PLUGIN_MARKER)).toBe(true);

    const [removed] = await applyInstall(nodeInstallIo, { home, agents: ['opencode'], os: 'posix', uninstall: true });
    expect(removed?.files.map((f) => [f.path, f.action])).toEqual([
      [plugin, 'remove'],
      [join(home, '.orca', 'agent-hooks', 'opencode-hook.sh'), 'remove'],
    ]);
    expect(readFileSync(join(dir, 'opencode.json'), 'utf8')).toBe(userConfig);
    expect(readFileSync(join(dir, 'plugins', 'notify.js'), 'utf8')).toBe(userPlugin);
    expect(() => readFileSync(plugin)).toThrow();
  });
});

/** The hooks one loaded copy of the plugin returns, as opencode calls them. */
interface PluginHooks {
  event: (input: { event: unknown }) => Promise<void>;
  'chat.message': (input: unknown, output: unknown) => Promise<void>;
}

describe('opencode: the generated plugin, run under Node with the real script and curl', () => {
  let server: RecordingServer;
  let hooks: PluginHooks;
  let factory: (() => Promise<PluginHooks>) | undefined;
  const token = 'opencode-plugin-token';

  beforeAll(async () => {
    server = await startRecordingServer();
    const home = tempDir('orca-ht-opencode-run-');
    const result = installAgent({ agent: 'opencode', os: 'posix', home, configs: {} });
    for (const f of result.files) {
      mkdirSync(join(f.path, '..'), { recursive: true });
      writeFileSync(f.path, f.content, { mode: f.mode });
    }
    Object.assign(process.env, {
      ORCA_PANE_KEY: 'tab-1:pane-1',
      ORCA_AGENT_HOOK_PORT: String(server.port),
      ORCA_AGENT_HOOK_TOKEN: token,
      ORCA_AGENT_HOOK_ENV: 'test',
      ORCA_AGENT_HOOK_VERSION: '1',
    });
    const mod = (await import(pathToFileURL(configPath(d, 'posix', home)).href)) as Record<
      string,
      () => Promise<PluginHooks>
    >;
    factory = Object.values(mod)[0];
    if (factory === undefined) throw new Error('the plugin exports no factory');
    hooks = await factory();
  });
  afterAll(async () => {
    for (const k of ['ORCA_PANE_KEY', 'ORCA_AGENT_HOOK_PORT', 'ORCA_AGENT_HOOK_TOKEN']) delete process.env[k];
    await server.close();
  });

  const events = async (n: number): Promise<{ event: string; body: Record<string, unknown> }[]> => {
    for (let i = 0; i < 200 && server.byToken(token).length < n; i++) await new Promise((r) => setTimeout(r, 50));
    return server.byToken(token).map((r) => {
      const fields = Object.fromEntries(decodeFormBody(r.body).map(([k, v]) => [k, v.toString('utf8')]));
      const body = JSON.parse(fields.payload ?? '{}') as Record<string, unknown>;
      return { event: String(body.hook_event_name), body };
    });
  };

  it("posts a turn in order: start, prompt, permissions (a subagent's too), reply, idle; drops subagent and repeated status", async () => {
    const bus = (type: string, properties: unknown) => hooks.event({ event: { type, properties } });
    await bus('session.created', { info: { id: 'child', parentID: 'lead' } });
    await hooks['chat.message'](
      { sessionID: 'lead' },
      {
        message: {},
        parts: [
          { type: 'text', text: 'fix the "bug" $(id)' },
          { type: 'text', text: 'ignored', synthetic: true },
        ],
      },
    );
    await bus('session.status', { sessionID: 'lead', status: { type: 'busy' } });
    await bus('session.status', { sessionID: 'child', status: { type: 'idle' } });
    await bus('permission.asked', { sessionID: 'child', permission: 'edit', title: 'a.ts' });
    await bus('permission.asked', { sessionID: 'lead', permission: 'bash', title: 'ls' });
    await bus('permission.replied', { sessionID: 'lead', reply: 'once' });
    await bus('session.status', { sessionID: 'lead', status: { type: 'busy' } });
    await bus('session.status', { sessionID: 'lead', status: { type: 'idle' } });
    await bus('session.idle', { sessionID: 'lead' });
    await bus('not.an.event', null);
    await hooks.event({ event: 42 });
    await factory?.(); // opencode loading the plugin again is no new session

    const got = await events(6);
    expect(got.map((g) => g.event)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PermissionRequest',
      'PermissionRequest',
      'PermissionReplied',
      'SessionIdle',
    ]);
    expect(got[1]?.body.prompt).toBe('fix the "bug" $(id)');
    expect(got[2]?.body).toMatchObject({ session_id: 'child', permission: 'edit', title: 'a.ts' });
    expect(got[3]?.body).toMatchObject({ session_id: 'lead', permission: 'bash', title: 'ls' });
    expect(server.byToken(token).every((r) => r.url === '/hook/opencode')).toBe(true);
    expect(OPENCODE_PLUGIN_EVENTS).toEqual(expect.arrayContaining(got.map((g) => g.event)));
  });
});

describe('opencode: the plugin outside an Orca pane', () => {
  it('starts nothing without ORCA_PANE_KEY', async () => {
    const dir = tempDir('orca-ht-opencode-off-');
    const marker = join(dir, 'ran');
    const script = join(dir, 'script.sh');
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const file = join(dir, 'plugin.js');
    writeFileSync(file, opencodePluginSource(opencodePluginLaunch('posix', script)));
    const saved = process.env.ORCA_PANE_KEY;
    delete process.env.ORCA_PANE_KEY;
    try {
      const mod = (await import(pathToFileURL(file).href)) as Record<string, () => Promise<PluginHooks>>;
      const plugin = await Object.values(mod)[0]?.();
      await plugin?.event({ event: { type: 'session.idle', properties: { sessionID: 's' } } });
      await new Promise((r) => setTimeout(r, 300));
      expect(() => readFileSync(marker)).toThrow();
    } finally {
      if (saved !== undefined) process.env.ORCA_PANE_KEY = saved;
    }
  });
});
