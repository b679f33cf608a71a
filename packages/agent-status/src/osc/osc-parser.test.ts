import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OSC_MAX_FRAME_CHARS } from '../limits.ts';
import { createOscStatusParser, OSC_STATUS_INTRODUCER } from './osc-parser.ts';
import type { OscStatusPayload } from './osc-payload.ts';

function runChunks(chunks: readonly string[]) {
  const p = createOscStatusParser();
  let display = '';
  const payloads: OscStatusPayload[] = [];
  for (const c of chunks) {
    const r = p.push(c);
    display += r.display;
    payloads.push(...r.payloads);
  }
  display += p.flush();
  return { display, payloads, dropped: p.stats.dropped };
}

function splitAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(text.slice(prev, p));
    prev = p;
  }
  out.push(text.slice(prev));
  return out;
}

const states = ['working', 'blocked', 'waiting', 'done'] as const;
const validFrame = fc
  .record({ state: fc.constantFrom(...states), toolName: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }) })
  .map((p) => {
    const payload: OscStatusPayload =
      p.toolName === undefined ? { state: p.state } : { state: p.state, toolName: p.toolName };
    return { payload, text: `${OSC_STATUS_INTRODUCER}${JSON.stringify(payload)}` };
  });
const piece = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '\x1b[31mred\x1b[0m',
    '\x1b]0;title\x07',
    '\x1b]99999;{"state":"working"}\x07',
    '\x1b]9999',
    '\x1b',
    '\x1b\\',
  ),
  validFrame.map((f) => `${f.text}\x07`),
  validFrame.map((f) => `${f.text}\x1b\\`),
  fc.constant(`${OSC_STATUS_INTRODUCER}{not json}\x07`),
  fc.constant(`${OSC_STATUS_INTRODUCER}{"state":"sleeping"}\x07`),
);

describe('createOscStatusParser', () => {
  it('removes a frame and keeps the rest in order', () => {
    const p = createOscStatusParser();
    expect(p.push('a\x1b]9999;{"state":"working","toolName":"Bash"}\x07b\x1b]0;t\x07c')).toEqual({
      display: 'ab\x1b]0;t\x07c',
      payloads: [{ state: 'working', toolName: 'Bash' }],
    });
  });

  it('returns the very same string for a chunk without ESC', () => {
    const chunk = 'plain output\r\n';
    expect(createOscStatusParser().push(chunk).display).toBe(chunk);
  });

  it('first terminator wins (BEL before ESC \\)', () => {
    const r = createOscStatusParser().push('\x1b]9999;{"state":"done"}\x07\x1b\\');
    expect(r).toEqual({ display: '\x1b\\', payloads: [{ state: 'done' }] });
  });

  it('passes ESC]99999; and other OSCs through untouched', () => {
    const text = '\x1b]99999;{"state":"working"}\x07\x1b]8;;http://x\x1b\\';
    expect(createOscStatusParser().push(text)).toEqual({ display: text, payloads: [] });
  });

  it('drops bad frames (bad JSON, bad state, over limits) and counts them', () => {
    const p = createOscStatusParser();
    const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
    const r = p.push(
      `x${OSC_STATUS_INTRODUCER}{oops\x07${OSC_STATUS_INTRODUCER}{"state":"idle"}\x07${OSC_STATUS_INTRODUCER}{"state":"working","model":"${'m'.repeat(121)}"}\x07${OSC_STATUS_INTRODUCER}{"state":"done","x":${deep}}\x07y${OSC_STATUS_INTRODUCER}{"state":"working"}\x07`,
    );
    expect(r).toEqual({ display: 'xy', payloads: [{ state: 'working' }] });
    expect(p.stats.dropped).toBe(4);
  });

  it('keeps interrupted only with done; validates subagents', () => {
    const p = createOscStatusParser();
    const r = p.push(
      `${OSC_STATUS_INTRODUCER}{"state":"working","interrupted":true}\x07${OSC_STATUS_INTRODUCER}{"state":"done","interrupted":true,"subagents":[{"id":"a1","state":"idle","startedAt":5}]}\x07`,
    );
    expect(r.payloads).toEqual([
      { state: 'working' },
      { state: 'done', interrupted: true, subagents: [{ id: 'a1', state: 'idle', startedAt: 5 }] },
    ]);
  });

  it('releases an over-long unterminated frame unchanged and rescans after its introducer', () => {
    const body = 'x'.repeat(OSC_MAX_FRAME_CHARS + 10);
    const text = `${OSC_STATUS_INTRODUCER}${body}${OSC_STATUS_INTRODUCER}{"state":"done"}\x07tail`;
    const r = runChunks([text]);
    expect(r).toEqual({ display: `${OSC_STATUS_INTRODUCER}${body}tail`, payloads: [{ state: 'done' }], dropped: 0 });
  });

  it('bounds the carry to introducer + OSC_MAX_FRAME_CHARS', () => {
    const p = createOscStatusParser();
    let released = '';
    released += p.push(OSC_STATUS_INTRODUCER).display;
    for (let i = 0; i < 100; i++) released += p.push('y'.repeat(1000)).display;
    const carried = p.flush();
    expect(carried.length).toBeLessThanOrEqual(OSC_MAX_FRAME_CHARS + OSC_STATUS_INTRODUCER.length);
    expect(released + carried).toBe(OSC_STATUS_INTRODUCER + 'y'.repeat(100_000));
  });

  it('property: any chunking (down to 1 char) equals the unsplit parse; display = input minus frames', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 20 }), (pieces, cuts) => {
        const text = pieces.join('');
        const whole = runChunks([text]);
        expect(runChunks(splitAt(text, cuts))).toEqual(whole);
        expect(runChunks([...text])).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('property: display is the input without its status frames', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 20 }).filter((s) => !s.includes('\x1b')),
            validFrame,
          ),
          { maxLength: 10 },
        ),
        (parts) => {
          const text = parts.map((p) => (typeof p === 'string' ? p : `${p.text}\x07`)).join('');
          const expected = parts.filter((p): p is string => typeof p === 'string').join('');
          const frames = parts
            .filter((p) => typeof p !== 'string')
            .map((p) => (p as { payload: OscStatusPayload }).payload);
          expect(runChunks([text])).toEqual({ display: expected, payloads: frames, dropped: 0 });
        },
      ),
    );
  });

  it('property: never throws on any input', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 8 }), (chunks) => {
        runChunks(chunks.map((c) => c.replace(/#/g, '\x1b]9999;')));
      }),
    );
  });
});

describe('flat fast path', () => {
  it('property: agrees with the zod schema on any object', async () => {
    const { decodeFlatPayload, oscStatusPayloadSchema } = await import('./osc-payload.ts');
    const value = fc.oneof(
      fc.constantFrom('working', 'blocked', 'waiting', 'done', 'idle'),
      fc.string({ maxLength: 200 }),
      fc.boolean(),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const key = fc.constantFrom(
      'state',
      'prompt',
      'agentType',
      'model',
      'toolName',
      'toolInput',
      'interrupted',
      'other',
      'subagents',
    );
    fc.assert(
      fc.property(fc.dictionary(key, value), (obj) => {
        const fast = decodeFlatPayload(obj);
        const slow = oscStatusPayloadSchema.safeParse(obj);
        if (fast !== undefined) expect(fast).toEqual(slow.success ? slow.data : null);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('clean-frame fast path of decodeOscPayload', () => {
  it('property: the same payload as the schema for any JSON object body', async () => {
    const { decodeOscPayload, oscStatusPayloadSchema } = await import('./osc-payload.ts');
    const value = fc.oneof(
      fc.constantFrom('working', 'blocked', 'waiting', 'done', 'idle'),
      fc.string({ maxLength: 200 }),
      fc.boolean(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.oneof(fc.integer(), fc.constant('[{')), { maxLength: 3 }),
    );
    const key = fc.constantFrom(
      'state',
      'prompt',
      'agentType',
      'model',
      'toolName',
      'toolInput',
      'interrupted',
      'lastAssistantMessage',
      'other',
      'subagents',
      '__proto__',
    );
    fc.assert(
      fc.property(fc.dictionary(key, value), fc.boolean(), (obj, nested) => {
        let deep: unknown[] = [];
        for (let level = 0; level < 17; level++) deep = [deep];
        const body = JSON.stringify(nested ? { deep, ...obj } : obj);
        const got = decodeOscPayload(body);
        const parsed = oscStatusPayloadSchema.safeParse(JSON.parse(body));
        if (nested) {
          expect(got).toBeNull();
          return;
        }
        if (!parsed.success) {
          expect(got).toBeNull();
          return;
        }
        const { interrupted, ...rest } = parsed.data;
        const want = interrupted !== undefined && parsed.data.state === 'done' ? parsed.data : rest;
        expect(got).toEqual(want);
      }),
      { numRuns: 2000 },
    );
  });

  it('a body with few openers but deep nesting inside strings is not mistaken for deep JSON', async () => {
    const { decodeOscPayload } = await import('./osc-payload.ts');
    const prompt = '['.repeat(40);
    expect(decodeOscPayload(JSON.stringify({ state: 'working', prompt }))).toEqual({ state: 'working', prompt });
  });
});
