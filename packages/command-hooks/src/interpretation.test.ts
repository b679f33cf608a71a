/**
 * One table-driven suite for §6–§7: dialect × event kind × hook output × failure policy ×
 * per-hook failure flag. Every case runs a real `/bin/sh` hook that prints the given stdout and
 * stderr and exits with the given code.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hook, POLICIES, shq, tempDir, testRunner, writeText } from '../test/support.ts';
import { type CanonicalEvent, EVENT_TRAITS, type EventPayloads } from './events.ts';
import type { Dialect, FailureMode } from './hook.ts';
import type { AsyncOutcome, BlockingOutcome } from './outcome.ts';

type Outcome = BlockingOutcome & AsyncOutcome;
type Script = { stdout?: string; stderr?: string; exit?: number } | 'missing-binary' | 'timeout' | 'missing-cwd';
interface Case {
  name: string;
  script: Script;
  /** A decision (not a failure): the outcome, whatever the policy. */
  outcome?: Outcome | null;
  /** A failure: the runtime error it must report. */
  fails?: RegExp;
  parseOk: boolean;
  enforced?: false;
  loopLimitReached?: true;
}
interface Group {
  dialect: Dialect;
  event: CanonicalEvent;
  wireEvent: string;
  payload: EventPayloads[CanonicalEvent];
  cases: Case[];
  loopLimit?: number | null;
}

const ok = (name: string, stdout: string, outcome: Outcome | null, extra: Partial<Case> = {}): Case => ({
  name,
  script: { stdout },
  outcome,
  parseOk: true,
  ...extra,
});
const fail = (name: string, script: Script, fails: RegExp, parseOk: boolean): Case => ({
  name,
  script,
  fails,
  parseOk,
});

/** Failures every dialect shares on an event whose output is read. */
const COMMON_FAILURES: Case[] = [
  fail('noise before JSON', { stdout: 'debug: starting\n{"a":1}' }, /^invalid JSON output: debug: starting/, false),
  fail('two documents', { stdout: '{}\n{}' }, /^invalid JSON output: /, false),
  fail('non-object JSON', { stdout: '[1,2]' }, /^invalid JSON output: \[1,2\]/, false),
  fail('exit 1 with empty stdout', { exit: 1 }, /^exited with code 1$/, true),
  fail('exit 3 with noise', { stdout: 'oops', exit: 3 }, /^exited with code 3$/, false),
  fail('missing binary', 'missing-binary', /^exited with code 127$/, true),
];
/** Slow or rare failures, exercised on one decision and one async event per dialect. */
const PROCESS_FAILURES: Case[] = [
  fail('timeout', 'timeout', /^timed out after 0.3s$/, false),
  fail('missing cwd', 'missing-cwd', /^failed to start: /, false),
];

const gate: EventPayloads['toolGate'] = {
  toolName: 'run_shell',
  input: { command: 'rm -rf /', cwd: '/r' },
  toolUseId: 'u1',
};
const readGate: EventPayloads['toolGate'] = { toolName: 'read_file', input: { path: '/r/.env' } };
const mcpGate: EventPayloads['toolGate'] = { toolName: 'mcp__gh__delete_repo', input: { name: 'x' } };
const afterTool: EventPayloads['afterToolUse'] = {
  toolName: 'run_shell',
  toolUseId: 'u1',
  isError: false,
  input: { command: 'ls' },
  output: 'a',
};

const GROUPS: Group[] = [
  // ---------------- claude ----------------
  {
    dialect: 'claude',
    event: 'toolGate',
    wireEvent: 'PreToolUse',
    payload: gate,
    cases: [
      ok('empty stdout', '', null),
      ok('whitespace stdout', '  \n', null),
      ok('BOM + empty object', '\uFEFF{}', null),
      ok(
        'permissionDecision deny + reason',
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}',
        { decision: 'deny', agentMessage: 'no rm' },
      ),
      ok(
        'permissionDecision allow + reason → user',
        '{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"fine"}}',
        { decision: 'allow', userMessage: 'fine' },
      ),
      ok('permissionDecision ask', '{"hookSpecificOutput":{"permissionDecision":"ask"}}', { decision: 'ask' }),
      ok('permissionDecision defer → ask', '{"hookSpecificOutput":{"permissionDecision":"defer"}}', {
        decision: 'ask',
      }),
      ok(
        'updatedInput in canonical keys',
        '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"rm -rf ./build"}}}',
        { decision: 'allow', updatedInput: { command: 'rm -rf ./build' } },
      ),
      ok('additionalContext → injectContext', '{"hookSpecificOutput":{"additionalContext":"ctx"}}', {
        injectContext: 'ctx',
      }),
      ok('deprecated decision block + reason', '{"decision":"block","reason":"legacy"}', {
        decision: 'deny',
        agentMessage: 'legacy',
      }),
      ok('deprecated decision approve', '{"decision":"approve"}', { decision: 'allow' }),
      ok(
        'continue:false → haltRun, never a deny',
        '{"continue":false,"stopReason":"halt!","hookSpecificOutput":{"permissionDecision":"allow"}}',
        { haltRun: { reason: 'halt!' }, userMessage: 'halt!' },
      ),
      ok('continue:false default reason', '{"continue":false}', {
        haltRun: { reason: 'hook stopped the run (continue:false)' },
        userMessage: 'hook stopped the run (continue:false)',
      }),
      ok('systemMessage → userMessage', '{"systemMessage":"note"}', { userMessage: 'note' }),
      ok('unknown keys ignored', '{"foo":1,"suppressOutput":true}', null),
      {
        name: 'exit 2 → deny from stderr, stdout ignored',
        script: { stdout: '{"hookSpecificOutput":{"permissionDecision":"allow"}}', stderr: '  dangerous  \n', exit: 2 },
        outcome: { decision: 'deny', agentMessage: 'dangerous' },
        parseOk: true,
      },
      {
        name: 'exit 2 empty stderr → default',
        script: { exit: 2 },
        outcome: { decision: 'deny', agentMessage: 'hook blocked (exit 2)' },
        parseOk: true,
      },
      fail(
        'invalid permissionDecision value',
        { stdout: '{"hookSpecificOutput":{"permissionDecision":"maybe"}}' },
        /^invalid output \/hookSpecificOutput\/permissionDecision: expected allow\|deny\|ask\|defer, got "maybe"$/,
        false,
      ),
      fail(
        'invalid continue value',
        { stdout: '{"continue":"no"}' },
        /^invalid output \/continue: expected boolean, got "no"$/,
        false,
      ),
      ...COMMON_FAILURES,
      ...PROCESS_FAILURES,
    ],
  },
  {
    dialect: 'claude',
    event: 'beforeSubmitPrompt',
    wireEvent: 'UserPromptSubmit',
    payload: { prompt: 'deploy' },
    cases: [
      ok('empty', '', null),
      ok('plain text is context', 'Current branch: main\n', { injectContext: 'Current branch: main' }),
      ok('two documents are plain text too', '{}\n{}', { injectContext: '{}\n{}' }),
      ok('decision block', '{"decision":"block","reason":"secrets in prompt"}', {
        haltRun: { reason: 'secrets in prompt' },
        userMessage: 'secrets in prompt',
      }),
      ok('additionalContext', '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}', {
        injectContext: 'ctx',
      }),
      {
        name: 'exit 2 → haltRun',
        script: { stderr: 'no', exit: 2 },
        outcome: { haltRun: { reason: 'no' }, userMessage: 'no' },
        parseOk: true,
      },
      fail(
        'invalid reason type',
        { stdout: '{"decision":"block","reason":5}' },
        /^invalid output \/reason: expected string, got 5$/,
        false,
      ),
      fail('exit 1', { exit: 1 }, /^exited with code 1$/, true),
    ],
  },
  {
    dialect: 'claude',
    event: 'stop',
    wireEvent: 'Stop',
    payload: { status: 'completed', loopCount: 1 },
    cases: [
      ok('empty', '', null),
      ok('decision block → queueMessage', '{"decision":"block","reason":"run the tests"}', {
        queueMessage: { text: 'run the tests', sendNow: false },
      }),
      ok('continue:false → haltRun', '{"continue":false,"stopReason":"enough"}', {
        haltRun: { reason: 'enough' },
        userMessage: 'enough',
      }),
      {
        name: 'exit 2 → queueMessage',
        script: { stderr: 'fix lint', exit: 2 },
        outcome: { queueMessage: { text: 'fix lint', sendNow: false } },
        parseOk: true,
      },
      fail('invalid decision', { stdout: '{"decision":"maybe"}' }, /^invalid output \/decision: /, false),
      ...COMMON_FAILURES,
      ...PROCESS_FAILURES,
    ],
  },
  {
    dialect: 'claude',
    event: 'afterToolUse',
    wireEvent: 'PostToolUse',
    payload: afterTool,
    cases: [
      ok(
        'additionalContext → queueMessage',
        '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings"}}',
        { queueMessage: { text: 'lint: 2 warnings', sendNow: false } },
      ),
      {
        name: 'exit 2 → queueMessage',
        script: { stderr: 'format failed', exit: 2 },
        outcome: { queueMessage: { text: 'format failed', sendNow: false } },
        parseOk: true,
      },
      ...COMMON_FAILURES,
    ],
  },
  {
    dialect: 'claude',
    event: 'sessionStart',
    wireEvent: 'SessionStart',
    payload: { source: 'startup' },
    cases: [
      ok(
        'additionalContext recorded, not applied',
        '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}',
        null,
      ),
      ok('systemMessage', '{"systemMessage":"welcome"}', { userMessage: 'welcome' }),
      {
        name: 'exit 2 → userMessage',
        script: { stderr: 'heads up', exit: 2 },
        outcome: { userMessage: 'heads up' },
        parseOk: true,
      },
      ...COMMON_FAILURES,
    ],
  },
  // ---------------- cursor ----------------
  {
    dialect: 'cursor',
    event: 'toolGate',
    wireEvent: 'beforeShellExecution',
    payload: gate,
    cases: [
      ok('empty', '', null),
      ok('deny snake_case', '{"permission":"deny","user_message":"blocked","agent_message":"use trash"}', {
        decision: 'deny',
        userMessage: 'blocked',
        agentMessage: 'use trash',
      }),
      ok('deny camelCase (1.7)', '{"permission":"deny","userMessage":"blocked","agentMessage":"use trash"}', {
        decision: 'deny',
        userMessage: 'blocked',
        agentMessage: 'use trash',
      }),
      ok('snake_case wins over camelCase', '{"permission":"allow","user_message":"snake","userMessage":"camel"}', {
        decision: 'allow',
        userMessage: 'snake',
      }),
      ok('ask is enforced here', '{"permission":"ask"}', { decision: 'ask' }),
      ok('updated_input object', '{"permission":"allow","updated_input":{"command":"ls"}}', {
        decision: 'allow',
        updatedInput: { command: 'ls' },
      }),
      ok('updatedInput not an object is ignored', '{"permission":"allow","updatedInput":"ls"}', { decision: 'allow' }),
      ok('additional_context', '{"additional_context":"c"}', { injectContext: 'c' }),
      {
        name: 'exit 2 → deny, stderr message',
        script: { stderr: 'dangerous', exit: 2 },
        outcome: { decision: 'deny', agentMessage: 'dangerous' },
        parseOk: true,
      },
      {
        name: 'exit 2 → deny, JSON messages win',
        script: { stdout: '{"agent_message":"from json","user_message":"u"}', stderr: 'err', exit: 2 },
        outcome: { decision: 'deny', agentMessage: 'from json', userMessage: 'u' },
        parseOk: true,
      },
      fail(
        'invalid permission value',
        { stdout: '{"permission":"nope"}' },
        /^invalid output \/permission: expected allow\|deny\|ask, got "nope"$/,
        false,
      ),
      ...COMMON_FAILURES,
      ...PROCESS_FAILURES,
    ],
  },
  {
    dialect: 'cursor',
    event: 'toolGate',
    wireEvent: 'preToolUse',
    payload: gate,
    cases: [
      {
        name: 'ask not enforced',
        script: { stdout: '{"permission":"ask"}' },
        outcome: null,
        parseOk: true,
        enforced: false,
      },
      ok('deny', '{"permission":"deny"}', { decision: 'deny' }),
      {
        name: 'exit 2 → deny',
        script: { exit: 2 },
        outcome: { decision: 'deny', agentMessage: 'hook blocked (exit 2)' },
        parseOk: true,
      },
      ...COMMON_FAILURES,
    ],
  },
  {
    dialect: 'cursor',
    event: 'toolGate',
    wireEvent: 'beforeReadFile',
    payload: readGate,
    cases: [
      {
        name: 'ask not enforced',
        script: { stdout: '{"permission":"ask"}' },
        outcome: null,
        parseOk: true,
        enforced: false,
      },
      ok('deny', '{"permission":"deny","user_message":"secret file"}', {
        decision: 'deny',
        userMessage: 'secret file',
      }),
    ],
  },
  {
    dialect: 'cursor',
    event: 'toolGate',
    wireEvent: 'beforeMCPExecution',
    payload: mcpGate,
    cases: [ok('ask enforced', '{"permission":"ask"}', { decision: 'ask' })],
  },
  {
    dialect: 'cursor',
    event: 'subagentStart',
    wireEvent: 'subagentStart',
    payload: { subagentType: 'explore' },
    cases: [
      ok('ask → deny', '{"permission":"ask"}', { decision: 'deny' }),
      {
        name: 'exit 2 → deny',
        script: { stderr: 'no subagents', exit: 2 },
        outcome: { decision: 'deny', agentMessage: 'no subagents' },
        parseOk: true,
      },
      ...COMMON_FAILURES,
    ],
  },
  {
    dialect: 'cursor',
    event: 'beforeSubmitPrompt',
    wireEvent: 'beforeSubmitPrompt',
    payload: { prompt: 'p' },
    cases: [
      ok('continue:false with user_message', '{"continue":false,"user_message":"no secrets"}', {
        haltRun: { reason: 'no secrets' },
        userMessage: 'no secrets',
      }),
      ok('continue:false default', '{"continue":false}', {
        haltRun: { reason: 'hook stopped the prompt (continue:false)' },
        userMessage: 'hook stopped the prompt (continue:false)',
      }),
      ok('never injectContext', '{"additional_context":"x"}', null),
      {
        name: 'exit 2 → haltRun',
        script: { stderr: 'halt', exit: 2 },
        outcome: { haltRun: { reason: 'halt' }, userMessage: 'halt' },
        parseOk: true,
      },
      fail(
        'continue not boolean',
        { stdout: '{"continue":"false"}' },
        /^invalid output \/continue: expected boolean, got "false"$/,
        false,
      ),
      ...COMMON_FAILURES,
    ],
  },
  {
    dialect: 'cursor',
    event: 'afterFileEdit',
    wireEvent: 'afterFileEdit',
    payload: { filePath: '/r/a.ts' },
    cases: [
      ok('output not read', '{"permission":"deny"}', null),
      { name: 'noise only marks parseOk', script: { stdout: 'formatted 1 file' }, outcome: null, parseOk: false },
      fail('exit 2 is an ordinary failure here', { exit: 2 }, /^exited with code 2$/, true),
      fail('exit 1', { exit: 1 }, /^exited with code 1$/, true),
    ],
  },
  {
    dialect: 'cursor',
    event: 'afterToolUse',
    wireEvent: 'postToolUse',
    payload: afterTool,
    cases: [
      ok('additional_context → queueMessage', '{"additional_context":"tests failing"}', {
        queueMessage: { text: 'tests failing', sendNow: false },
      }),
      ...COMMON_FAILURES,
    ],
  },
  {
    dialect: 'cursor',
    event: 'afterToolUse',
    wireEvent: 'afterShellExecution',
    payload: afterTool,
    cases: [{ name: 'output not read', script: { stdout: 'noise' }, outcome: null, parseOk: false }],
  },
  {
    dialect: 'cursor',
    event: 'stop',
    wireEvent: 'stop',
    payload: { status: 'completed', loopCount: 2 },
    cases: [
      ok('followup_message → queueMessage', '{"followup_message":"now run tests"}', {
        queueMessage: { text: 'now run tests', sendNow: false },
      }),
      ok('permission ignored', '{"permission":"deny"}', null),
      fail('exit 2 is a failure on stop', { exit: 2 }, /^exited with code 2$/, true),
      ...COMMON_FAILURES,
      ...PROCESS_FAILURES,
    ],
  },
  {
    dialect: 'cursor',
    event: 'stop',
    wireEvent: 'stop',
    loopLimit: 2,
    payload: { status: 'completed', loopCount: 2 },
    cases: [
      {
        name: 'loop_limit reached',
        script: { stdout: '{"followup_message":"again"}' },
        outcome: null,
        parseOk: true,
        loopLimitReached: true,
      },
    ],
  },
  {
    dialect: 'cursor',
    event: 'stop',
    wireEvent: 'stop',
    loopLimit: null,
    payload: { status: 'completed', loopCount: 50 },
    cases: [
      ok('loop_limit null = no cap', '{"followup_message":"again"}', {
        queueMessage: { text: 'again', sendNow: false },
      }),
    ],
  },
  {
    dialect: 'cursor',
    event: 'stop',
    wireEvent: 'stop',
    payload: { status: 'completed', loopCount: 5 },
    cases: [
      {
        name: 'default loop_limit 5',
        script: { stdout: '{"followup_message":"again"}' },
        outcome: null,
        parseOk: true,
        loopLimitReached: true,
      },
    ],
  },
  {
    dialect: 'cursor',
    event: 'subagentStop',
    wireEvent: 'subagentStop',
    payload: { subagentType: 'x', status: 'error' },
    cases: [ok('followup only when completed', '{"followup_message":"again"}', null)],
  },
  {
    dialect: 'cursor',
    event: 'sessionStart',
    wireEvent: 'sessionStart',
    payload: {},
    cases: [
      ok('env → sessionEnv', '{"env":{"A":"1"}}', { sessionEnv: { A: '1' } }),
      fail(
        'env not an object',
        { stdout: '{"env":"A=1"}' },
        /^invalid output \/env: expected object, got "A=1"$/,
        false,
      ),
    ],
  },
  // ---------------- orca ----------------
  {
    dialect: 'orca',
    event: 'toolGate',
    wireEvent: 'toolGate',
    payload: gate,
    cases: [
      ok('empty', '', null),
      ok(
        'all decision fields',
        '{"decision":"deny","agentMessage":"a","userMessage":"u","injectContext":"c","updatedInput":{"command":"ls"}}',
        { decision: 'deny', agentMessage: 'a', userMessage: 'u', injectContext: 'c', updatedInput: { command: 'ls' } },
      ),
      ok('haltRun', '{"haltRun":{"reason":"r"}}', { haltRun: { reason: 'r' } }),
      ok('continue:false aliases haltRun', '{"continue":false,"stopReason":"s"}', { haltRun: { reason: 's' } }),
      {
        name: 'exit 2 → deny',
        script: { stderr: 'no', exit: 2 },
        outcome: { decision: 'deny', agentMessage: 'no' },
        parseOk: true,
      },
      fail(
        'unknown key is an error',
        { stdout: '{"decision":"allow","permission":"allow"}' },
        /^invalid output \/: unknown key\(s\) permission$/,
        false,
      ),
      fail(
        'async field on a decision event',
        { stdout: '{"queueMessage":{"text":"x"}}' },
        /unknown key\(s\) queueMessage/,
        false,
      ),
      fail(
        'invalid decision value',
        { stdout: '{"decision":"block"}' },
        /^invalid output \/decision: expected allow\|deny\|ask, got "block"$/,
        false,
      ),
      ...COMMON_FAILURES,
      ...PROCESS_FAILURES,
    ],
  },
  {
    dialect: 'orca',
    event: 'beforeSubmitPrompt',
    wireEvent: 'beforeSubmitPrompt',
    payload: { prompt: 'p' },
    cases: [
      {
        name: 'exit 2 → haltRun',
        script: { stderr: 'stop', exit: 2 },
        outcome: { haltRun: { reason: 'stop' }, agentMessage: 'stop' },
        parseOk: true,
      },
      fail('updatedInput only on toolGate', { stdout: '{"updatedInput":{}}' }, /unknown key\(s\) updatedInput/, false),
    ],
  },
  {
    dialect: 'orca',
    event: 'subagentStart',
    wireEvent: 'subagentStart',
    payload: { subagentType: 'x' },
    cases: [ok('ask → deny', '{"decision":"ask"}', { decision: 'deny' })],
  },
  {
    dialect: 'orca',
    event: 'beforeDiffApply',
    wireEvent: 'beforeDiffApply',
    payload: { filePath: '/r/a' },
    cases: [ok('ask → deny', '{"decision":"ask"}', { decision: 'deny' }), ...COMMON_FAILURES],
  },
  {
    dialect: 'orca',
    event: 'afterFileEdit',
    wireEvent: 'afterFileEdit',
    payload: { filePath: '/r/a' },
    cases: [
      ok('observation fields', '{"userMessage":"formatted"}', { userMessage: 'formatted' }),
      fail('no decision on an observation', { stdout: '{"decision":"deny"}' }, /unknown key\(s\) decision/, false),
      fail('exit 2 is a failure', { exit: 2 }, /^exited with code 2$/, true),
    ],
  },
  {
    dialect: 'orca',
    event: 'stop',
    wireEvent: 'stop',
    payload: { status: 'completed' },
    cases: [
      ok('queueMessage', '{"queueMessage":{"text":"t"}}', { queueMessage: { text: 't', sendNow: false } }),
      ok('queueMessage sendNow', '{"queueMessage":{"text":"t","sendNow":true},"userMessage":"u"}', {
        queueMessage: { text: 't', sendNow: true },
        userMessage: 'u',
      }),
      fail('no decision on async', { stdout: '{"decision":"deny"}' }, /unknown key\(s\) decision/, false),
      fail('sessionEnv only on sessionStart', { stdout: '{"sessionEnv":{}}' }, /unknown key\(s\) sessionEnv/, false),
      fail('exit 2 is a failure', { exit: 2 }, /^exited with code 2$/, true),
      ...COMMON_FAILURES,
      ...PROCESS_FAILURES,
    ],
  },
  {
    dialect: 'orca',
    event: 'sessionStart',
    wireEvent: 'sessionStart',
    payload: { source: 'startup' },
    cases: [ok('sessionEnv', '{"sessionEnv":{"K":"v"}}', { sessionEnv: { K: 'v' } })],
  },
];

function commandFor(dir: string, c: Case, index: number): { command: string; cwd: string; timeoutMs: number } {
  const script = c.script;
  if (script === 'missing-binary')
    return { command: 'cat >/dev/null; no-such-hook-binary-xyz', cwd: dir, timeoutMs: 10_000 };
  if (script === 'timeout') return { command: 'cat >/dev/null; sleep 5', cwd: dir, timeoutMs: 300 };
  if (script === 'missing-cwd') return { command: 'true', cwd: path.join(dir, 'missing'), timeoutMs: 10_000 };
  const out = writeText(dir, `out-${index}.txt`, script.stdout ?? '');
  const err = writeText(dir, `err-${index}.txt`, script.stderr ?? '');
  return {
    command: `cat >/dev/null; cat ${shq(out)}; cat ${shq(err)} >&2; exit ${script.exit ?? 0}`,
    cwd: dir,
    timeoutMs: 10_000,
  };
}

describe('interpretation table (§6–§7)', () => {
  for (const group of GROUPS) {
    const kind = EVENT_TRAITS[group.event].kind;
    const title = `${group.dialect} ${group.wireEvent} (${kind})${group.loopLimit !== undefined ? ` loop_limit=${group.loopLimit}` : ''}`;
    for (const policy of POLICIES) {
      it(`${title} × policy ${policy}`, async () => {
        const dir = tempDir();
        for (const [i, c] of group.cases.entries()) {
          const flags: FailureMode[] = c.fails ? ['open', 'closed'] : ['open'];
          for (const flag of flags) {
            const t = testRunner({ hooks: [], failurePolicy: policy, baseEnv: { PATH: process.env.PATH ?? '' } });
            const { command, cwd, timeoutMs } = commandFor(dir, c, i);
            const h = hook({
              dialect: group.dialect,
              event: group.event,
              wireEvent: group.wireEvent,
              command,
              cwd,
              timeoutMs,
              onFailure: flag,
              ...(group.loopLimit !== undefined ? { loopLimit: group.loopLimit } : {}),
            });
            const result = await t.runner.run(h as never, group.payload as never);
            const [rec] = t.runs();
            const label = `${c.name} [flag ${flag}]`;
            expect(rec?.parseOk, label).toBe(c.parseOk);
            if (c.fails) {
              const closed = policy === 'strict' || flag === 'closed';
              expect(rec?.runtimeError, label).toMatch(c.fails);
              const expected = {
                outcome:
                  closed && kind === 'decision'
                    ? {
                        decision: 'deny',
                        agentMessage: `hook "${command.slice(0, 120)}${command.length > 120 ? '…' : ''}" ${rec?.runtimeError} — blocked by failClosed`,
                      }
                    : null,
                failed: true,
                failureMode: closed ? 'closed' : 'open',
              };
              expect(result, label).toEqual(expected);
              expect({ failed: rec?.failed, failureMode: rec?.failureMode }, label).toEqual({
                failed: true,
                failureMode: expected.failureMode,
              });
            } else {
              expect(result, label).toEqual({ outcome: c.outcome ?? null, failed: false });
              expect(rec?.failed, label).toBe(false);
              if (c.enforced === false)
                expect(rec?.decision, label).toMatchObject({ permission: 'ask', enforced: false });
              if (c.loopLimitReached) expect(rec?.decision.loopLimitReached, label).toBe(true);
            }
          }
        }
      }, 60_000);
    }
  }
});
