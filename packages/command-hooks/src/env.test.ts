import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hook, onlyRun, shq, tempDir, testRunner } from '../test/support.ts';
import { buildChildEnv, isLlmCredentialKey, parseHookDepth, scrubLlmCredentials } from './env.ts';

/** A hook command that writes its environment as JSON to `file`. */
function dumpEnv(file: string): string {
  return `${shq(process.execPath)} -e "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.env))" ${shq(file)}`;
}
function readEnv(file: string): Record<string, string> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}
function orcaKeys(env: Record<string, string>): string[] {
  return Object.keys(env)
    .filter((k) => k.toUpperCase().startsWith('ORCA_'))
    .sort();
}

describe('scrubLlmCredentials', () => {
  it('drops LLM credentials, keeps tool tokens', () => {
    expect(
      scrubLlmCredentials({
        ANTHROPIC_API_KEY: 'a',
        openai_api_key: 'b',
        AZURE_OPENAI_API_KEY: 'c',
        LMSTUDIO_API_TOKEN: 'd',
        LM_STUDIO_SECRET: 'e',
        CURSOR_SESSION_TOKEN: 'f',
        CLAUDE_CODE_OAUTH_TOKEN: 'g',
        HF_TOKEN: 'h',
        HUGGING_FACE_HUB_TOKEN: 'i',
        GOOGLE_CLOUD_AUTH_TOKEN: 'j',
        GITHUB_TOKEN: 'k',
        GH_TOKEN: 'l',
        NPM_TOKEN: 'm',
        AWS_SECRET_ACCESS_KEY: 'n',
        ANTHROPIC_BASE_URL: 'o',
        UNDEF: undefined,
      }),
    ).toEqual({
      GITHUB_TOKEN: 'k',
      GH_TOKEN: 'l',
      NPM_TOKEN: 'm',
      AWS_SECRET_ACCESS_KEY: 'n',
      ANTHROPIC_BASE_URL: 'o',
    });
  });

  it('an environment variable named __proto__ stays an own key (fast-check found it)', () => {
    const env = JSON.parse('{"__proto__":"x","HOME":"/h"}') as Record<string, string>;
    const out = scrubLlmCredentials(env);
    expect(Object.keys(out)).toEqual(['__proto__', 'HOME']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('property: a key is dropped iff it is a credential key; values never change', () => {
    const key = fc.oneof(
      fc.string(),
      fc
        .tuple(
          fc.constantFrom('ANTHROPIC', 'openai', 'Gemini', 'XAI', 'GITHUB', 'AWS', 'HF', 'LM_STUDIO'),
          fc.constantFrom('_', '_X_'),
          fc.constantFrom('API_KEY', 'token', 'SECRET', 'SESSION_TOKEN', 'URL'),
        )
        .map((p) => p.join('')),
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.string()), (env) => {
        const out = scrubLlmCredentials(env);
        for (const [k, v] of Object.entries(env)) {
          if (isLlmCredentialKey(k)) expect(k in out).toBe(false);
          else expect(out[k]).toBe(v);
        }
      }),
    );
  });
});

describe('parseHookDepth', () => {
  it('reads ASCII digits only, anything else is 0', () => {
    fc.assert(fc.property(fc.nat(), (n) => parseHookDepth({ ORCA_HOOK_DEPTH: String(n) }) === n));
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^\d+$/.test(s)),
        (s) => parseHookDepth({ ORCA_HOOK_DEPTH: s }) === 0,
      ),
    );
    expect([
      parseHookDepth({}),
      parseHookDepth({ ORCA_HOOK_DEPTH: ' 1' }),
      parseHookDepth({ ORCA_HOOK_DEPTH: '-1' }),
    ]).toEqual([0, 0, 0]);
  });
});

describe('buildChildEnv', () => {
  it('layers base → dialect → session → depth, dropping ORCA_* from base and session', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.string()),
        fc.dictionary(fc.string(), fc.string()),
        fc.nat({ max: 5 }),
        (base, session, depth) => {
          const { env, droppedSessionKeys } = buildChildEnv({
            scrubbedBase: base,
            dialectVars: { CLAUDE_PROJECT_DIR: '/p' },
            sessionEnv: session,
            depth,
          });
          expect(env.ORCA_HOOK_DEPTH).toBe(String(depth + 1));
          expect(Object.keys(env).filter((k) => k.toUpperCase().startsWith('ORCA_'))).toEqual(['ORCA_HOOK_DEPTH']);
          expect(droppedSessionKeys.sort()).toEqual(
            Object.keys(session)
              .filter((k) => k.toUpperCase().startsWith('ORCA_'))
              .sort(),
          );
          const expectDir = Object.hasOwn(session, 'CLAUDE_PROJECT_DIR') ? session.CLAUDE_PROJECT_DIR : '/p';
          expect(env.CLAUDE_PROJECT_DIR).toBe(expectDir);
        },
      ),
    );
  });
});

describe('child env (real processes)', () => {
  const hostEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ORCA_AGENT_HOOK_PORT: '4444',
    ORCA_AGENT_HOOK_TOKEN: 'secret-token',
    orca_pane_key: 'tab:1',
    ORCA_HOOK_DEPTH: '0',
    ANTHROPIC_API_KEY: 'sk-ant',
    GITHUB_TOKEN: 'gh',
    CLAUDE_PROJECT_DIR: '/from-base',
  };

  it('no ORCA_* but ORCA_HOOK_DEPTH reaches a claude hook; credentials scrubbed; dialect var wins over base', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'env.json');
    const t = testRunner({ hooks: [], baseEnv: hostEnv });
    await t.runner.run(hook({ dialect: 'claude', event: 'stop', wireEvent: 'Stop', command: dumpEnv(out), cwd: dir }), {
      status: 'completed',
    });
    const env = readEnv(out);
    expect(orcaKeys(env)).toEqual(['ORCA_HOOK_DEPTH']);
    expect({
      depth: env.ORCA_HOOK_DEPTH,
      anthropic: env.ANTHROPIC_API_KEY,
      gh: env.GITHUB_TOKEN,
      dir: env.CLAUDE_PROJECT_DIR,
    }).toEqual({
      depth: '1',
      anthropic: undefined,
      gh: 'gh',
      dir,
    });
  });

  it('a custom scrubEnv that keeps everything still cannot leak ORCA_*; orca dialect gets ORCA_PROJECT_DIR', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'env.json');
    const t = testRunner({ hooks: [], baseEnv: hostEnv, scrubEnv: (e) => ({ ...e }) });
    await t.runner.run(hook({ dialect: 'orca', event: 'stop', command: dumpEnv(out), cwd: dir }), {
      status: 'completed',
    });
    const env = readEnv(out);
    expect(orcaKeys(env)).toEqual(['ORCA_HOOK_DEPTH', 'ORCA_PROJECT_DIR']);
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant');
  });

  it('the recursion guard neither spawns nor records at depth ≥ 1; junk depth counts as 0', async () => {
    const h = hook({ dialect: 'claude', event: 'stop', wireEvent: 'Stop', command: 'echo ran' });
    const nested = testRunner({ hooks: [h], baseEnv: { ...hostEnv, ORCA_HOOK_DEPTH: '1' } });
    expect(await nested.runner.run(h, { status: 'completed' })).toEqual({ outcome: null, failed: false });
    expect(nested.runner.emitDetached('stop', { status: 'completed' })).toEqual([]);
    expect({ spawns: nested.spawnCalls(), records: nested.records.length }).toEqual({ spawns: 0, records: 0 });
    const junk = testRunner({ hooks: [], baseEnv: { ...hostEnv, ORCA_HOOK_DEPTH: '1x' } });
    await junk.runner.run(h, { status: 'completed' });
    expect(junk.spawnCalls()).toBe(1);
  });
});

describe('session env from sessionStart hooks', () => {
  it('is exported to later hooks of the same conversation only, validated, depth not overridable', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'env.json');
    const exporter = hook({
      dialect: 'cursor',
      event: 'sessionStart',
      wireEvent: 'sessionStart',
      command: `cat >/dev/null; echo '{"env":{"FOO":"bar","ORCA_HOOK_DEPTH":"7","ORCA_X":"1","bad-key":"v","NUM":3,"PATH":"/evil"}}'`,
      cwd: dir,
    });
    const reader = hook({ dialect: 'claude', event: 'stop', wireEvent: 'Stop', command: dumpEnv(out), cwd: dir });
    const t = testRunner({ hooks: [exporter], baseEnv: { PATH: process.env.PATH ?? '' } });
    expect(t.runner.emitDetached('sessionStart', { source: 'startup' }, { conversationId: 'c1' })).toEqual(['running']);
    await t.runner.whenIdle();
    const start = onlyRun(t);
    expect({ keys: start.decision.sessionEnvKeys, dropped: start.decision.droppedSessionEnvKeys?.sort() }).toEqual({
      keys: ['FOO', 'PATH'],
      dropped: ['NUM', 'ORCA_HOOK_DEPTH', 'ORCA_X', 'bad-key'],
    });
    await t.runner.run(reader, { status: 'completed' }, { conversationId: 'c1' });
    const env = readEnv(out);
    expect({ FOO: env.FOO, PATH: env.PATH, depth: env.ORCA_HOOK_DEPTH, x: env.ORCA_X }).toEqual({
      FOO: 'bar',
      PATH: '/evil',
      depth: '1',
      x: undefined,
    });
    await t.runner.run(reader, { status: 'completed' }, { conversationId: 'c2' });
    expect(readEnv(out).FOO).toBeUndefined();
    t.runner.clearSession('c1');
    await t.runner.run(reader, { status: 'completed' }, { conversationId: 'c1' });
    expect(readEnv(out).FOO).toBeUndefined();
  });

  it('a new detached sessionStart clears the conversation’s env synchronously', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'env.json');
    const exporter = hook({
      dialect: 'orca',
      event: 'sessionStart',
      command: `cat >/dev/null; echo '{"sessionEnv":{"FOO":"bar"}}'`,
      cwd: dir,
    });
    let hooks = [exporter];
    const t = testRunner({ hooks: () => hooks, baseEnv: { PATH: process.env.PATH ?? '' } });
    t.runner.emitDetached('sessionStart', {}, { conversationId: 'c1' });
    await t.runner.whenIdle();
    const reader = hook({ dialect: 'claude', event: 'stop', wireEvent: 'Stop', command: dumpEnv(out), cwd: dir });
    await t.runner.run(reader, { status: 'completed' }, { conversationId: 'c1' });
    expect(readEnv(out).FOO).toBe('bar');
    hooks = [];
    expect(t.runner.emitDetached('sessionStart', { source: 'clear' }, { conversationId: 'c1' })).toEqual([]);
    await t.runner.run(reader, { status: 'completed' }, { conversationId: 'c1' });
    expect(readEnv(out).FOO).toBeUndefined();
  });
});
