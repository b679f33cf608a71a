import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hook } from '../../test/support.ts';
import type { DialectEventHandler } from '../dialects/adapter.ts';
import { DIALECTS } from '../dialects/registry.ts';
import { CANONICAL_EVENTS, type CanonicalEvent, type EventPayloads } from '../events.ts';
import type { Dialect } from '../hook.ts';
import { parseStdout } from './interpretation.ts';

const PAYLOADS: EventPayloads = {
  toolGate: { toolName: 'run_shell', input: { command: 'ls' } },
  beforeSubmitPrompt: { prompt: 'p' },
  afterFileEdit: { filePath: '/a' },
  subagentStart: { subagentType: 'x' },
  beforeDiffApply: { filePath: '/a' },
  stop: { status: 'completed', loopCount: 9 },
  afterToolUse: { toolName: 'run_shell', toolUseId: 'u', isError: false },
  subagentStop: { subagentType: 'x', status: 'completed' },
  sessionStart: {},
  permissionDecision: { toolName: 't', decision: 'allow' },
  afterDiffApply: { filePath: '/a', applied: true },
  postTurnReview: { issuesFound: 0, summary: '' },
};

const stdoutArb = fc.oneof(
  fc.string(),
  fc.json(),
  fc
    .dictionary(
      fc.constantFrom(
        'permission',
        'decision',
        'continue',
        'hookSpecificOutput',
        'env',
        'followup_message',
        'updated_input',
        'haltRun',
        'queueMessage',
        'user_message',
        'sessionEnv',
      ),
      fc.jsonValue(),
    )
    .map((o) => JSON.stringify(o)),
);

function interpretOf<E extends CanonicalEvent>(dialect: Dialect, event: E) {
  const handler: DialectEventHandler<E> | undefined = DIALECTS[dialect].events[event];
  return handler === undefined ? undefined : { handler, payload: PAYLOADS[event] };
}

describe('hook output decoders', () => {
  it('parseStdout: never throws; whitespace is empty; objects only', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseStdout(s);
        if (s.replace(/^\uFEFF/, '').trim() === '') expect(r.kind).toBe('empty');
        if (r.kind === 'object') expect(typeof r.value === 'object' && !Array.isArray(r.value)).toBe(true);
      }),
    );
  });

  it('every dialect × event: any stdout/stderr/exit code → an interpretation, never a throw', () => {
    for (const dialect of ['claude', 'cursor', 'orca'] as const) {
      for (const event of CANONICAL_EVENTS) {
        const found = interpretOf(dialect, event);
        if (found === undefined) continue;
        const h = hook({ dialect, event, command: 'x' });
        fc.assert(
          fc.property(stdoutArb, fc.string(), fc.integer({ min: 0, max: 255 }), (stdout, stderr, exitCode) => {
            const r = found.handler.interpret({ exitCode, stdout, stderr }, found.payload as never, h);
            expect(typeof r.parseOk).toBe('boolean');
            if (r.failed) expect(r.outcome).toBeNull();
            if (r.failed) expect(typeof r.runtimeError).toBe('string');
            if (exitCode !== 0 && exitCode !== 2) expect(r.failed).toBe(true);
          }),
          { numRuns: 60 },
        );
      }
    }
  });
});
