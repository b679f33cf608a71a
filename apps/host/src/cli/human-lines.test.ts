import { formatDryRunReport, formatListReport } from '@orca/command-hooks/reports';
import { printableBlock, printableField, terminalSafeJson } from '@orca/shared/printable';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDemoEvent } from '../demo/run-demo.ts';
import type { PaneView } from '../panes/pane-view.ts';
import {
  formatDispatchReceipt,
  formatErrorLine,
  formatGuestAdded,
  formatGuestRemoved,
  formatGuestRow,
  formatHookInstallReport,
  formatPaneRow,
  formatPaneShow,
  formatQueueItem,
  formatStatusChange,
  formatWaitResult,
} from './human-lines.ts';
import { type CliIo, reportError, UsageError } from './output.ts';
import { runCli } from './program.ts';

// Any code point, with the ones a terminal acts on drawn often.
const hostileUnit = fc.oneof(
  fc.constantFrom('\x1b', '\x07', '\x9b', '\x9d', '\x7f', '\n', '\r', '\t', '\0', '\x85', '\\', ']'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit: hostileUnit, maxLength: 40 });
// C0 (newline too), DEL, C1: nothing a one-line formatter may emit.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const paneView = fc.record(
  {
    handle: text,
    name: fc.option(text),
    paneKey: text,
    cwd: text,
    guest: fc.option(text),
    title: fc.option(text),
    status: fc.option(text) as fc.Arbitrary<PaneView['status']>,
    isRunningAgent: fc.boolean(),
    agentWait: fc.option(fc.record({ source: text, reason: fc.option(text, { nil: undefined }) })),
    exited: fc.record({ code: fc.option(fc.integer()), signal: fc.option(fc.integer()), cause: text }),
    tail: text,
  },
  { requiredKeys: ['handle', 'name', 'paneKey', 'cwd', 'guest', 'title', 'status', 'isRunningAgent'] },
) as fc.Arbitrary<PaneView>;

function oneLine(out: string): void {
  expect(out).not.toMatch(ANY_CONTROL);
}

describe('printable', () => {
  it('escapes C0, DEL and C1 visibly and keeps everything else', () => {
    expect(printableField('evil\x1b]0;PWNED\x07\x1b[2J\u009b\x7f\tok\n')).toBe(
      'evil\\x1b]0;PWNED\\x07\\x1b[2J\\u009b\\x7f\\x09ok\\x0a',
    );
    expect(printableBlock('a\x1bb\nc\rd')).toBe('a\\x1bb\nc\\x0dd');
    expect(printableField('é 日本 🎉 C:\\Users')).toBe('é 日本 🎉 C:\\Users');
  });

  it('printableField leaves no control character; printableBlock only newlines; both keep the rest', () => {
    fc.assert(
      fc.property(text, (s) => {
        oneLine(printableField(s));
        expect(printableBlock(s)).not.toMatch(CONTROL_BUT_NEWLINE);
        expect(printableBlock(s).split('\n').length).toBe(s.split('\n').length);
        const kept = [...s].filter((c) => !ANY_CONTROL.test(c)).join('');
        expect(printableField(s).replace(/\\(x[0-9a-f]{2}|u00[89][0-9a-f])/g, '')).toBe(
          kept.replace(/\\(x[0-9a-f]{2}|u00[89][0-9a-f])/g, ''),
        );
      }),
    );
  });

  it('terminalSafeJson parses back to the same value and carries no raw C0, DEL or C1', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(text, text), (value, dict) => {
        for (const v of [value, dict]) {
          const out = terminalSafeJson(v);
          oneLine(out);
          expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
        }
      }),
    );
    expect(terminalSafeJson({ cwd: 'a\u009b\x7f' })).toBe('{"cwd":"a\\u009b\\u007f"}');
    expect(terminalSafeJson(undefined)).toBe('null');
  });
});

describe('every orca formatter escapes text from outside', () => {
  it('pane rows, status lines and terminal show', () => {
    fc.assert(
      fc.property(paneView, fc.integer({ min: -1e16, max: 1e16 }), (v, at) => {
        oneLine(formatPaneRow(v));
        oneLine(formatStatusChange({ handle: v.handle, at, verdict: v }));
        const shown = formatPaneShow(v);
        expect(shown).not.toMatch(CONTROL_BUT_NEWLINE);
        // The row is one line; the tail keeps its own lines.
        expect(shown.split('\n').length).toBe(v.tail ? v.tail.split('\n').length + 1 : 1);
      }),
    );
  });

  it('guest, wait, dispatch, hooks install, command-hooks and error lines', () => {
    fc.assert(
      fc.property(text, text, text, text, fc.boolean(), (a, b, c, d, flag) => {
        oneLine(formatWaitResult({ satisfied: flag, blockedReason: a }));
        oneLine(formatGuestAdded({ name: a, phase: b, home: c }));
        oneLine(formatGuestRow({ name: a, connectionId: b, phase: c, lastError: d }));
        oneLine(formatGuestRemoved(a, flag));
        oneLine(
          formatDispatchReceipt({
            bytes: 3,
            submittedBy: a as 'hook',
            submitKeys: 1,
            ...(flag ? { hookProof: d as 'text' } : {}),
            stages: [{ stage: b, at: 1 } as never, { stage: c, at: 5 } as never],
          }),
        );
        oneLine(
          formatQueueItem({
            id: 7,
            handle: a,
            state: b,
            prompt: c,
            ...(flag ? { position: 2, error: { code: d, message: a } } : {}),
          }),
        );
        for (const line of formatHookInstallReport(
          {
            agent: a,
            version: flag ? { version: b, from: c } : undefined,
            error: flag ? undefined : { code: b, message: d },
            files: [{ action: c, path: d }],
            codexTrustGranted: [a],
          },
          flag,
        ))
          oneLine(line);
        // Why: `orca command-hooks` prints the library's report lines as they are.
        const issue = {
          code: 'ORCA_CMDHOOKS_CONFIG_INVALID' as const,
          file: b,
          path: c,
          line: 1,
          column: 2,
          message: d,
        };
        const hook = { dialect: a, wireEvent: b, event: c, id: c, command: d, source: a, timeoutMs: 1 };
        for (const line of formatListReport({ hooks: [hook], warnings: [issue], errors: [issue] })) oneLine(line);
        for (const line of formatDryRunReport({
          event: 'stop',
          outcome: null,
          asyncOutcomes: [],
          records: [],
          warnings: [issue],
          errors: [issue],
        }))
          oneLine(line);
        oneLine(formatErrorLine(a, `${b}\n${c}`));
      }),
    );
  });

  it('orca demo lines', () => {
    fc.assert(
      fc.property(text, text, fc.array(text, { maxLength: 4 }), fc.boolean(), (a, b, argv, ok) => {
        const verdict = { status: a, isRunningAgent: ok, agentWait: { source: b, reason: a } } as never;
        for (const e of [
          { kind: 'start', dataDir: a, home: b, hookPort: 1 },
          { kind: 'hooks-installed', files: [{ path: a, action: b }] },
          { kind: 'pane', handle: a, argv },
          { kind: 'verdict', handle: a, at: 0, verdict },
          { kind: 'inject', prompt: a, ok: true, bytes: 1 },
          { kind: 'inject', prompt: a, ok: false, code: b, bytesWritten: 0 },
          { kind: 'answer', text: a },
        ] as const)
          oneLine(formatDemoEvent(e as never));
      }),
    );
  });

  it('reportError prints one escaped line, or JSON with no raw control character', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (message, json) => {
        const lines: string[] = [];
        const io: CliIo = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
        expect(reportError(io, new UsageError(message), { json, debug: false })).toBe(2);
        expect(lines).toHaveLength(1);
        oneLine(lines[0] ?? '');
        if (json) expect(JSON.parse(lines[0] ?? '')).toMatchObject({ error: { message } });
      }),
    );
  });

  it("commander's own errors quoting argv come out escaped", async () => {
    for (const argv of [
      ['frob\x1b]0;PWNED\x07'],
      ['start', '--hook-port', 'x\x1b[2J'],
      ['ls', '--bogus\u009b2J'],
      ['terminal', 'wait', 'h', '--for', 'x\x1b[2J'],
    ]) {
      const lines: string[] = [];
      const io: CliIo = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
      expect(await runCli(argv, io)).toBe(2);
      expect(lines.join('\n')).not.toMatch(CONTROL_BUT_NEWLINE);
      expect(lines.join('\n')).toMatch(/\\x1b|\\u009b/);
    }
  });
});
