import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hook, shq, tempDir, testRunner } from '../test/support.ts';
import { MAX_INJECT_CONTEXT_CHARS } from './limits.ts';
import { type BlockingOutcome, capInjectContext, mergeOutcomes } from './outcome.ts';

const outcomeArb: fc.Arbitrary<BlockingOutcome | null> = fc.option(
  fc.record(
    {
      decision: fc.constantFrom('allow', 'deny', 'ask'),
      haltRun: fc.record({ reason: fc.string() }),
      updatedInput: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.integer()),
      injectContext: fc.string({ maxLength: 4000 }),
      agentMessage: fc.string(),
      userMessage: fc.string(),
    },
    { requiredKeys: [] },
  ),
);

describe('mergeOutcomes', () => {
  it('deny > ask > allow; first haltRun wins; updatedInput key by key; messages joined in order', () => {
    fc.assert(
      fc.property(fc.array(outcomeArb, { maxLength: 8 }), (list) => {
        const m = mergeOutcomes(list);
        const present = list.filter((o): o is BlockingOutcome => o !== null);
        const decisions = present.map((o) => o.decision).filter((d) => d !== undefined);
        const want = decisions.includes('deny')
          ? 'deny'
          : decisions.includes('ask')
            ? 'ask'
            : decisions.includes('allow')
              ? 'allow'
              : undefined;
        expect(m.decision).toBe(want);
        expect(m.haltRun).toEqual(present.find((o) => o.haltRun)?.haltRun);
        const withInput = present.filter((o) => o.updatedInput);
        const ui = withInput.length === 0 ? undefined : Object.assign({}, ...withInput.map((o) => o.updatedInput));
        expect(m.updatedInput).toEqual(ui);
        const agent = present.map((o) => o.agentMessage).filter((x) => x !== undefined);
        expect(m.agentMessage).toBe(agent.length ? agent.join('\n') : undefined);
        const ctx = present.map((o) => o.injectContext).filter((x) => x !== undefined);
        expect(m.injectContext).toBe(ctx.length ? capInjectContext(ctx.join('\n\n')) : undefined);
        if (m.injectContext !== undefined) expect(m.injectContext.length).toBeLessThanOrEqual(MAX_INJECT_CONTEXT_CHARS);
      }),
    );
  });

  it('caps injectContext with a note counted in the cap', () => {
    const text = 'x'.repeat(25_000);
    const capped = capInjectContext(text);
    expect(capped.length).toBe(MAX_INJECT_CONTEXT_CHARS);
    expect(capped.endsWith(`…[hook context truncated, ${25_000 - capped.indexOf('…')} chars omitted]`)).toBe(true);
    expect(capInjectContext('short')).toBe('short');
  });
});

describe('emit', () => {
  it('threads updatedInput into the next hook’s real stdin and merges across dialects', async () => {
    const dir = tempDir();
    const seen = path.join(dir, 'seen.json');
    const first = hook({
      id: 'claude:a#/0',
      dialect: 'claude',
      event: 'toolGate',
      wireEvent: 'PreToolUse',
      command: `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls -la"},"additionalContext":"one"}}'`,
    });
    const second = hook({
      id: 'cursor:b#/0',
      dialect: 'cursor',
      event: 'toolGate',
      wireEvent: 'preToolUse',
      command: `cat > ${shq(seen)}; echo '{"permission":"ask","updated_input":{"extra":true},"additional_context":"two"}'`,
    });
    const third = hook({
      id: 'orca:c#/0',
      dialect: 'orca',
      event: 'toolGate',
      command: `cat >/dev/null; echo '{"decision":"deny","agentMessage":"no"}'`,
    });
    const t = testRunner({ hooks: [first, second, third] });
    const out = await t.runner.emit('toolGate', { toolName: 'run_shell', input: { command: 'ls', cwd: '/x' } });
    expect((JSON.parse(readFileSync(seen, 'utf8')) as { tool_input: unknown }).tool_input).toEqual({
      command: 'ls -la',
      cwd: '/x',
    });
    expect((JSON.parse(t.runs()[2]?.stdin ?? '{}') as { input: unknown }).input).toEqual({
      command: 'ls -la',
      extra: true,
      cwd: '/x',
    });
    expect(out).toEqual({
      decision: 'deny',
      updatedInput: { command: 'ls -la', extra: true },
      injectContext: 'one\n\ntwo',
      agentMessage: 'no',
      runs: 3,
      failedRuns: 0,
    });
  });

  it('an async hook on a blocking event runs detached; its decision is recorded enforced:false', async () => {
    const h = hook({
      dialect: 'claude',
      event: 'toolGate',
      wireEvent: 'PreToolUse',
      async: true,
      command: `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`,
    });
    const t = testRunner({ hooks: [h] });
    const out = await t.runner.emit('toolGate', { toolName: 'run_shell', input: { command: 'ls' } });
    expect(out).toEqual({ runs: 0, failedRuns: 0 });
    await t.runner.whenIdle();
    expect(t.runs()[0]?.decision).toEqual({ permission: 'deny', enforced: false });
  });

  it('matchers and globs select hooks; abstentions spawn and record nothing', async () => {
    const hooks = [
      hook({
        id: 'c1',
        dialect: 'claude',
        event: 'toolGate',
        wireEvent: 'PreToolUse',
        matcher: 'Read|Write',
        command: 'echo x',
      }),
      hook({
        id: 'c2',
        dialect: 'claude',
        event: 'toolGate',
        wireEvent: 'PreToolUse',
        matcher: '^mcp__.*',
        command: 'cat >/dev/null',
      }),
      hook({
        id: 'k1',
        dialect: 'cursor',
        event: 'toolGate',
        wireEvent: 'beforeShellExecution',
        matcher: 'npm (publish|install)',
        command: 'cat >/dev/null',
      }),
      hook({
        id: 'o1',
        dialect: 'orca',
        event: 'beforeDiffApply',
        glob: ['src/**/*.ts'],
        command: 'cat >/dev/null',
        projectDir: '/repo',
        cwd: tempDir(),
      }),
      hook({
        id: 'o2',
        dialect: 'orca',
        event: 'beforeDiffApply',
        glob: ['*.md'],
        command: 'cat >/dev/null',
        projectDir: '/repo',
        cwd: tempDir(),
      }),
      hook({ id: 'bad', dialect: 'orca', event: 'toolGate', matcher: '(', command: 'echo never' }),
    ];
    const t = testRunner({ hooks });
    await t.runner.emit('toolGate', { toolName: 'mcp__gh__x', input: {} });
    await t.runner.emit('toolGate', { toolName: 'run_shell', input: { command: 'npm install left-pad' } });
    await t.runner.emit('beforeDiffApply', { filePath: '/repo/src/deep/a.ts' });
    await t.runner.emit('beforeDiffApply', { filePath: 'README.md' });
    expect(t.runs().map((r) => r.hookId)).toEqual(['c2', 'k1', 'o1', 'o2']);
  });

  it('a throwing record sink goes to onError; the run still resolves', async () => {
    const errors: unknown[] = [];
    const t = testRunner({
      hooks: [],
      onError: (e) => errors.push(e),
      record: () => {
        throw new Error('sink down');
      },
    });
    const r = await t.runner.run(hook({ dialect: 'orca', event: 'stop', command: 'cat >/dev/null' }), {
      status: 'completed',
    });
    expect({ r, errors: errors.map((e) => (e instanceof Error ? e.message : '')) }).toEqual({
      r: { outcome: null, failed: false },
      errors: ['sink down'],
    });
  });

  it('onRuntimeError fires once per hook per conversation', async () => {
    const events: string[] = [];
    const h = hook({ dialect: 'cursor', event: 'stop', wireEvent: 'stop', command: 'cat >/dev/null; exit 1' });
    const t = testRunner({ hooks: [h], onRuntimeError: (e) => events.push(`${e.conversationId}:${e.message}`) });
    for (const c of ['a', 'a', 'b']) await t.runner.run(h, { status: 'completed' }, { conversationId: c });
    expect(events).toEqual(['a:exited with code 1', 'b:exited with code 1']);
  });
});

describe('abort', () => {
  it('ctx.signal kills the hook; the run is recorded aborted and abstains', async () => {
    const ac = new AbortController();
    const t = testRunner({ hooks: [], failurePolicy: 'strict' });
    setTimeout(() => ac.abort(), 200);
    const r = await t.runner.run(
      hook({ dialect: 'cursor', event: 'toolGate', wireEvent: 'preToolUse', command: 'cat >/dev/null; sleep 30' }),
      { toolName: 'grep', input: {} },
      { signal: ac.signal },
    );
    expect(r).toEqual({ outcome: null, failed: false });
    expect(t.runs()[0]).toMatchObject({ aborted: true, timedOut: false, exitCode: null, failed: false });
  });
});
