import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyTitle } from './classify-title.ts';

describe('classifyTitle rules, each against its neighbours', () => {
  const cases: [string, ReturnType<typeof classifyTitle>][] = [
    // 1. management, bare Cursor Agent, shells
    ['claude agents', { status: null, agent: 'claude', kind: 'management' }],
    ['Claude Agents', { status: null, agent: 'claude', kind: 'management' }],
    ['claude agent', { status: 'idle', agent: 'claude', kind: 'name-only' }],
    ['Cursor Agent', { status: null, agent: 'cursor', kind: 'none' }],
    ['CURSOR AGENT', { status: null, agent: 'cursor', kind: 'none' }],
    ['⠙ Cursor Agent', { status: 'working', agent: 'cursor', kind: 'explicit' }],
    ['bash', { status: null, agent: null, kind: 'shell' }],
    ['/usr/bin/zsh', { status: null, agent: null, kind: 'shell' }],
    ['-zsh', { status: null, agent: null, kind: 'shell' }],
    ['pwsh.exe claude', { status: null, agent: null, kind: 'shell' }],
    ['fish: ~/repo', { status: null, agent: null, kind: 'shell' }],
    ['bashful claude', { status: 'idle', agent: 'claude', kind: 'name-only' }],
    // 2. OpenCode native
    ['OC | Fix tests', { status: 'idle', agent: 'opencode', kind: 'opencode-native' }],
    ['⠋ OC | Fix tests', { status: 'working', agent: 'opencode', kind: 'opencode-native' }],
    ['◑ OC | Fix tests', { status: 'working', agent: 'opencode', kind: 'opencode-native' }],
    ['▣ OC | Fix tests', { status: 'idle', agent: 'opencode', kind: 'opencode-native' }],
    ['tmux | ⠋ OC | Fix tests', { status: 'working', agent: 'opencode', kind: 'opencode-native' }],
    ['OC Fix tests', { status: null, agent: null, kind: 'none' }],
    // 3. Pi / OMP markers beat glyphs
    ['π : editing', { status: 'working', agent: 'pi', kind: 'explicit' }],
    ['Pi ! approve', { status: 'permission', agent: 'pi', kind: 'explicit' }],
    ['OMP > ready', { status: 'idle', agent: 'omp', kind: 'explicit' }],
    ['π :', { status: 'working', agent: 'pi', kind: 'explicit' }],
    // 4. Gemini glyphs, not for DSH
    ['✋ Action Required', { status: 'permission', agent: 'gemini', kind: 'explicit' }],
    ['✦ Working', { status: 'working', agent: 'gemini', kind: 'explicit' }],
    ['⏲ Waiting on tool', { status: 'working', agent: 'gemini', kind: 'explicit' }],
    ['◇ Ready', { status: 'idle', agent: 'gemini', kind: 'explicit' }],
    ['✦ dsh', { status: null, agent: null, kind: 'none' }],
    // 5. synthetic pi/omp
    ['⠋ pi', { status: 'working', agent: 'pi', kind: 'explicit' }],
    ['omp - ready', { status: 'idle', agent: 'omp', kind: 'explicit' }],
    ['pi - action required', { status: 'permission', agent: 'pi', kind: 'explicit' }],
    ['⠋ omp - done', { status: 'idle', agent: 'omp', kind: 'explicit' }],
    // 6. Claude ✳, legacy π
    ['✳ Claude Code', { status: 'idle', agent: 'claude', kind: 'explicit' }],
    ['✳', { status: 'idle', agent: 'claude', kind: 'explicit' }],
    // Qwen Code 0.24.4 (agents lab): its glyphs carry a text-presentation selector.
    ['Qwen - project', { status: 'idle', agent: 'qwen', kind: 'explicit' }],
    ['◐\uFE0E Qwen - project', { status: 'working', agent: 'qwen', kind: 'explicit' }],
    ['✳\uFE0E Qwen - project', { status: 'permission', agent: 'qwen', kind: 'explicit' }],
    ['✳\uFE0E Claude Code', { status: 'idle', agent: 'claude', kind: 'explicit' }],
    ['✳ Fix the qwen hook', { status: 'idle', agent: 'claude', kind: 'explicit' }],
    ['notes on qwen', { status: 'idle', agent: 'qwen', kind: 'name-only' }],
    ['π project', { status: 'idle', agent: 'pi', kind: 'explicit' }],
    // 7. spinners
    ['⠐ Running tests', { status: 'working', agent: null, kind: 'explicit' }],
    ['◐ npm install', { status: 'working', agent: null, kind: 'activity-only' }],
    // 8. gate
    ['vim notes.md', { status: null, agent: null, kind: 'none' }],
    ['running the build', { status: null, agent: null, kind: 'none' }],
    ['u@box: ~/repo', { status: null, agent: null, kind: 'none' }],
    // 9. keywords and prefixes
    ['codex - action required', { status: 'permission', agent: 'codex', kind: 'explicit' }],
    ['copilot: permissions needed', { status: 'permission', agent: 'copilot', kind: 'explicit' }],
    ['grok waiting', { status: 'permission', agent: 'grok', kind: 'explicit' }],
    ['codex ready', { status: 'idle', agent: 'codex', kind: 'explicit' }],
    ['devin: done', { status: 'idle', agent: 'devin', kind: 'explicit' }],
    ['hermes thinking', { status: 'working', agent: 'hermes', kind: 'explicit' }],
    ['. amp', { status: 'working', agent: 'amp', kind: 'explicit' }],
    ['* kimi', { status: 'idle', agent: 'kimi', kind: 'explicit' }],
    ['codex ~/src/waiting-room', { status: 'idle', agent: 'codex', kind: 'name-only' }],
    ['codex readying', { status: 'idle', agent: 'codex', kind: 'name-only' }],
    ['Droid', { status: null, agent: 'droid', kind: 'name-only' }],
    ['droid working', { status: 'working', agent: 'droid', kind: 'explicit' }],
    ['aider', { status: 'idle', agent: null, kind: 'name-only' }],
    ['agy', { status: 'idle', agent: 'antigravity', kind: 'name-only' }],
    ['my-claude-fork', { status: null, agent: null, kind: 'none' }],
    ['', { status: null, agent: null, kind: 'none' }],
  ];
  for (const [title, expected] of cases) {
    it(JSON.stringify(title), () => {
      expect(classifyTitle(title)).toEqual(expected);
    });
  }

  it('memoizes without changing answers past the LRU size', () => {
    const first = classifyTitle('codex ready');
    for (let i = 0; i < 600; i++) classifyTitle(`codex task ${i}`);
    expect(classifyTitle('codex ready')).toEqual(first);
  });
});

describe('keyword boundaries (property)', () => {
  const keywords = [
    'action required',
    'permission',
    'waiting',
    'ready',
    'idle',
    'done',
    'working',
    'thinking',
    'running',
  ];
  it('no keyword fires after [\\w./\\\\-] or before [\\w-]', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...keywords),
        fc.constantFrom('a', '_', '.', '/', '\\', '-', '9'),
        fc.constantFrom('a', '_', '-', '7'),
        fc.boolean(),
        (word, left, right, leftSide) => {
          const glued = leftSide ? `${left}${word}` : `${word}${right}`;
          const c = classifyTitle(`codex ${glued}`);
          expect(c).toEqual({ status: 'idle', agent: 'codex', kind: 'name-only' });
        },
      ),
    );
  });

  it('never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => {
        const c = classifyTitle(s);
        expect(['working', 'permission', 'idle', null]).toContain(c.status);
      }),
    );
  });
});
