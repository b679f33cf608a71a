import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir, writeText } from '../test/support.ts';
import { MANAGED_STEMS } from './config/managed.ts';
import { parseHookConfig } from './config/parse.ts';
import { discoverHooks } from './discover.ts';

const claude = (hooks: unknown) => JSON.stringify({ hooks }, null, 2);

function project(): { root: string; home: string } {
  const base = tempDir();
  const root = path.join(base, 'repo');
  const home = path.join(base, 'home');
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { root, home };
}

describe('discoverHooks', () => {
  it('reads every source in order with its dialect, cwd, default timeout and id', async () => {
    const { root, home } = project();
    writeText(root, '.orca/hooks.json', JSON.stringify({ version: 1, hooks: { toolGate: [{ command: 'o1' }] } }));
    writeText(root, '.claude/settings.json', claude({ Stop: [{ hooks: [{ type: 'command', command: 'c1' }] }] }));
    writeText(
      root,
      '.claude/settings.local.json',
      claude({ Stop: [{ hooks: [{ type: 'command', command: 'c2', timeout: 5 }] }] }),
    );
    writeText(root, '.cursor/hooks.json', JSON.stringify({ version: 1, hooks: { stop: [{ command: 'k1' }] } }));
    writeText(
      home,
      '.claude/settings.json',
      claude({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'c3' }] }] }),
    );
    writeText(
      home,
      '.cursor/hooks.json',
      JSON.stringify({ hooks: { beforeShellExecution: [{ command: 'k2', timeout: 2 }] } }),
    );
    const found = await discoverHooks(root, { home });
    expect(found.errors).toEqual([]);
    expect(found.warnings).toEqual([]);
    expect(found.hooks.map((h) => [h.id, h.dialect, h.event, h.wireEvent, h.command, h.cwd, h.timeoutMs])).toEqual([
      ['orca:.orca/hooks.json#/hooks/toolGate/0', 'orca', 'toolGate', 'toolGate', 'o1', root, 30_000],
      ['claude:.claude/settings.json#/hooks/Stop/0/hooks/0', 'claude', 'stop', 'Stop', 'c1', root, 600_000],
      ['claude:.claude/settings.local.json#/hooks/Stop/0/hooks/0', 'claude', 'stop', 'Stop', 'c2', root, 5_000],
      ['cursor:.cursor/hooks.json#/hooks/stop/0', 'cursor', 'stop', 'stop', 'k1', root, 30_000],
      [
        'claude:~/.claude/settings.json#/hooks/PreToolUse/0/hooks/0',
        'claude',
        'toolGate',
        'PreToolUse',
        'c3',
        root,
        600_000,
      ],
      [
        'cursor:~/.cursor/hooks.json#/hooks/beforeShellExecution/0',
        'cursor',
        'toolGate',
        'beforeShellExecution',
        'k2',
        path.join(home, '.cursor'),
        2_000,
      ],
    ]);
    expect(found.hooks[4]?.matcher).toBe('Bash');
  });

  it('absent files are silent; root = home reads each file once', async () => {
    const { root } = project();
    expect(await discoverHooks(root, { home: path.join(root, 'nope') })).toEqual({
      hooks: [],
      warnings: [],
      errors: [],
    });
    writeText(root, '.claude/settings.json', claude({ Stop: [{ hooks: [{ type: 'command', command: 'c1' }] }] }));
    const found = await discoverHooks(root, { home: root });
    expect(found.hooks.map((h) => h.id)).toEqual(['claude:.claude/settings.json#/hooks/Stop/0/hooks/0']);
    expect(found.warnings).toEqual([]);
  });

  it('a syntax error drops that file only, positioned by line and column', async () => {
    const { root, home } = project();
    const file = writeText(root, '.claude/settings.json', '{\n  "hooks": {\n    "Stop": [,]\n  }\n}');
    writeText(root, '.cursor/hooks.json', JSON.stringify({ hooks: { stop: [{ command: 'k1' }] } }));
    const found = await discoverHooks(root, { home });
    expect(found.hooks.map((h) => h.command)).toEqual(['k1']);
    expect(found.errors).toEqual([
      {
        code: 'ORCA_CMDHOOKS_CONFIG_INVALID',
        file,
        path: '',
        line: 3,
        column: 14,
        message: 'invalid JSON at 3:14: ValueExpected',
      },
    ]);
  });

  it('an invalid entry drops only itself, with pointer, expectation and echo', async () => {
    const { root, home } = project();
    const file = writeText(
      root,
      '.claude/settings.json',
      claude({
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'ok1' },
              { type: 'command', command: 'bad', timeout: '10s' },
              { type: 'command', command: 'ok2' },
            ],
          },
        ],
      }),
    );
    const found = await discoverHooks(root, { home });
    expect(found.hooks.map((h) => h.command)).toEqual(['ok1', 'ok2']);
    expect(found.errors).toEqual([
      {
        code: 'ORCA_CMDHOOKS_CONFIG_INVALID',
        file,
        path: '/hooks/Stop/0/hooks/1/timeout',
        line: 13,
        column: 13,
        message: '/hooks/Stop/0/hooks/1/timeout: expected positive number, got "10s"',
      },
    ]);
  });

  it('warns (never silently skips) unknown and unsupported events, non-command handlers, invalid matchers', async () => {
    const { root, home } = project();
    writeText(
      root,
      '.claude/settings.json',
      claude({
        Notification: [{ hooks: [{ type: 'command', command: 'n' }] }],
        Bogus: [],
        Stop: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }],
        PreToolUse: [{ matcher: 'Bash(', hooks: [{ type: 'command', command: 'm' }] }],
      }),
    );
    writeText(
      root,
      '.cursor/hooks.json',
      JSON.stringify({ hooks: { sessionEnd: [{ command: 'e' }], nope: [], stop: [{ command: 'p', type: 'prompt' }] } }),
    );
    const found = await discoverHooks(root, { home });
    expect(found.hooks).toEqual([]);
    expect(found.warnings.map((w) => [w.code, w.path])).toEqual([
      ['unsupported-event', '/hooks/Notification'],
      ['unknown-event', '/hooks/Bogus'],
      ['unsupported-hook-type', '/hooks/Stop/0/hooks/0'],
      ['invalid-matcher', '/hooks/PreToolUse/0/hooks/0'],
      ['unsupported-event', '/hooks/sessionEnd'],
      ['unknown-event', '/hooks/nope'],
      ['unsupported-hook-type', '/hooks/stop/0'],
    ]);
  });

  it('a Claude command repeated across Claude files runs once (duplicate-hook)', async () => {
    const { root, home } = project();
    writeText(root, '.claude/settings.json', claude({ Stop: [{ hooks: [{ type: 'command', command: 'same' }] }] }));
    const dup = writeText(
      home,
      '.claude/settings.json',
      claude({
        Stop: [{ hooks: [{ type: 'command', command: 'same' }] }],
        SubagentStop: [{ hooks: [{ type: 'command', command: 'same' }] }],
      }),
    );
    const found = await discoverHooks(root, { home });
    expect(found.hooks.map((h) => `${h.wireEvent}:${h.source}`)).toEqual([
      'Stop:.claude/settings.json',
      'SubagentStop:~/.claude/settings.json',
    ]);
    expect(found.warnings.map((w) => [w.code, w.file, w.path])).toEqual([
      ['duplicate-hook', dup, '/hooks/Stop/0/hooks/0'],
    ]);
  });

  it("skips Orca's own managed status hooks (every stem, backslash paths, encoded PowerShell) but not a user's agent-hooks script", async () => {
    const { root, home } = project();
    const encoded = Buffer.from("& 'C:\\Users\\me\\.orca\\agent-hooks\\codex-hook.ps1'", 'utf16le').toString('base64');
    const commands = [
      ...MANAGED_STEMS.map((s) => `/bin/sh "$HOME/.orca/agent-hooks/${s}.sh"`),
      'C:\\Users\\me\\.orca\\agent-hooks\\claude-hook.cmd',
      `powershell.exe -NoProfile -EncodedCommand ${encoded}`,
      './agent-hooks/lint.sh',
    ];
    writeText(
      root,
      '.cursor/hooks.json',
      JSON.stringify({ hooks: { stop: commands.map((command) => ({ command })) } }),
    );
    const found = await discoverHooks(root, { home });
    expect(found.hooks.map((h) => h.command)).toEqual(['./agent-hooks/lint.sh']);
    expect(found.warnings.map((w) => w.code)).toEqual(commands.slice(0, -1).map(() => 'managed-hook'));
    expect(MANAGED_STEMS).toContain('antigravity-stop');
    expect(MANAGED_STEMS).toContain('command-code-hook-impl');
  });

  it('the orca file is strict: version 1, no unknown keys or events', async () => {
    const { root, home } = project();
    const file = writeText(root, '.orca/hooks.json', JSON.stringify({ hooks: { stop: [{ command: 'x' }] } }));
    let found = await discoverHooks(root, { home });
    expect({ hooks: found.hooks, errors: found.errors.map((e) => e.message) }).toEqual({
      hooks: [],
      errors: ['/version: expected 1, got nothing'],
    });
    writeText(
      root,
      '.orca/hooks.json',
      JSON.stringify({
        version: 1,
        extra: 1,
        hooks: {
          Stop: [{ command: 'x' }],
          stop: [
            { command: 'y', when: 1 },
            { command: 'z', glob: '*.ts', loopLimit: null },
          ],
        },
      }),
    );
    found = await discoverHooks(root, { home });
    expect(found.hooks.map((h) => [h.command, h.glob, h.loopLimit])).toEqual([['z', ['*.ts'], null]]);
    expect(found.errors.map((e) => [e.file, e.path, e.message])).toEqual([
      [file, '', '/: unknown key(s) extra'],
      [file, '/hooks/Stop', '/hooks/Stop: expected a canonical event name, got "Stop"'],
      [file, '/hooks/stop/0', '/hooks/stop/0: unknown key(s) when'],
    ]);
  });

  it('an unreadable file is an UNREADABLE error; the others still load', async () => {
    const { root, home } = project();
    mkdirSync(path.join(root, '.claude', 'settings.json'), { recursive: true });
    writeText(root, '.cursor/hooks.json', JSON.stringify({ hooks: { stop: [{ command: 'k' }] } }));
    const found = await discoverHooks(root, { home });
    expect(found.hooks.map((h) => h.command)).toEqual(['k']);
    expect(found.errors.map((e) => [e.code, e.file])).toEqual([
      ['ORCA_CMDHOOKS_CONFIG_UNREADABLE', path.join(root, '.claude', 'settings.json')],
    ]);
  });

  it('cursor fields: failClosed, loop_limit, matcher; claude onFailure block and async', async () => {
    const { root, home } = project();
    writeText(
      root,
      '.cursor/hooks.json',
      JSON.stringify({ hooks: { stop: [{ command: 'k', failClosed: true, loop_limit: null, matcher: 'x' }] } }),
    );
    writeText(
      root,
      '.claude/settings.json',
      claude({ Stop: [{ hooks: [{ type: 'command', command: 'c', onFailure: 'block', async: true, timeout: -1 }] }] }),
    );
    const found = await discoverHooks(root, { home });
    expect(found.hooks.map((h) => [h.command, h.onFailure, h.loopLimit, h.matcher, h.async, h.timeoutMs])).toEqual([
      ['c', 'closed', undefined, undefined, true, 600_000],
      ['k', 'closed', null, 'x', undefined, 30_000],
    ]);
  });
});

describe('parseHookConfig', () => {
  it('property: any text never throws and always returns arrays', () => {
    for (const dialect of ['claude', 'cursor', 'orca'] as const) {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string(),
            fc.json(),
            fc.uint8Array().map((b) => Buffer.from(b).toString('latin1')),
          ),
          (text) => {
            const r = parseHookConfig(dialect, text, '/r/.x/f.json');
            return Array.isArray(r.hooks) && Array.isArray(r.warnings) && Array.isArray(r.errors);
          },
        ),
        { numRuns: 300 },
      );
    }
  });

  it('property: arbitrary JSON objects under "hooks" never throw', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (hooks) => {
        for (const dialect of ['claude', 'cursor', 'orca'] as const) {
          const r = parseHookConfig(dialect, JSON.stringify({ version: 1, hooks }), '/r/.x/f.json');
          expect(r.hooks.every((h) => h.command.length > 0)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('every source × {valid, syntax error, bad entry among good ones, unknown event}', () => {
  const SOURCES = [
    { where: 'root', file: '.orca/hooks.json', dialect: 'orca', label: '.orca/hooks.json' },
    { where: 'root', file: '.claude/settings.json', dialect: 'claude', label: '.claude/settings.json' },
    { where: 'root', file: '.claude/settings.local.json', dialect: 'claude', label: '.claude/settings.local.json' },
    { where: 'root', file: '.cursor/hooks.json', dialect: 'cursor', label: '.cursor/hooks.json' },
    { where: 'home', file: '.claude/settings.json', dialect: 'claude', label: '~/.claude/settings.json' },
    { where: 'home', file: '.cursor/hooks.json', dialect: 'cursor', label: '~/.cursor/hooks.json' },
  ] as const;
  const entries = (dialect: string, commands: unknown[]) => {
    if (dialect === 'claude')
      return { hooks: { Stop: [{ hooks: commands.map((command) => ({ type: 'command', command })) }], Bogus: [] } };
    if (dialect === 'cursor')
      return { version: 1, hooks: { stop: commands.map((command) => ({ command })), bogus: [] } };
    return { version: 1, hooks: { stop: commands.map((command) => ({ command })) } };
  };
  for (const s of SOURCES) {
    it(`${s.label}`, async () => {
      const { root, home } = project();
      const base = s.where === 'root' ? root : home;
      const file = writeText(base, s.file, JSON.stringify(entries(s.dialect, ['good1', 42, 'good2']), null, 2));
      const found = await discoverHooks(root, { home });
      expect(found.hooks.map((h) => [h.id, h.command])).toEqual([
        [`${s.dialect}:${s.label}#${s.dialect === 'claude' ? '/hooks/Stop/0/hooks/0' : '/hooks/stop/0'}`, 'good1'],
        [`${s.dialect}:${s.label}#${s.dialect === 'claude' ? '/hooks/Stop/0/hooks/2' : '/hooks/stop/2'}`, 'good2'],
      ]);
      expect(found.errors.map((e) => [e.code, e.file, e.message, typeof e.line])).toEqual([
        [
          'ORCA_CMDHOOKS_CONFIG_INVALID',
          file,
          `${s.dialect === 'claude' ? '/hooks/Stop/0/hooks/1/command' : '/hooks/stop/1/command'}: expected non-empty string, got 42`,
          'number',
        ],
      ]);
      expect(found.warnings.map((w) => w.code)).toEqual(s.dialect === 'orca' ? [] : ['unknown-event']);
      writeText(base, s.file, '{"hooks": ');
      const broken = await discoverHooks(root, { home });
      expect({ hooks: broken.hooks, errors: broken.errors.map((e) => [e.file, e.line, e.column]) }).toEqual({
        hooks: [],
        errors: [[file, 1, 11]],
      });
    });
  }
});
