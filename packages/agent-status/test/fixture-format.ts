import type { ClassifyFlags } from '../src/cli/evidence-from-flags.ts';

/** One corpus case: evidence (as CLI flags), the raw tail/screen, and the expected output. */
export interface FixtureCase {
  why: string;
  evidence: Omit<ClassifyFlags, 'tail' | 'screen'>;
  tail: string;
  screen?: string;
  expect: Record<string, unknown>;
}

const SECTION = /^--- (evidence|tail|screen|expect)\s*$/;

/** `\e` → ESC, `\a` → BEL, `\r` → CR, `\\` → backslash: lets fixtures carry control bytes as text. */
export function decodeEscapes(text: string): string {
  return text.replace(/\\([ear\\])/g, (_, c: string) =>
    c === 'e' ? '\x1b' : c === 'a' ? '\x07' : c === 'r' ? '\r' : '\\',
  );
}

/** Parse a `.fixture` file; throws with the file's problem (a broken fixture is a failing test). */
export function parseFixture(text: string): FixtureCase {
  const sections = new Map<string, string[]>();
  let why = '';
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const head = SECTION.exec(line);
    if (head?.[1]) {
      current = [];
      sections.set(head[1], current);
    } else if (current) current.push(line);
    else if (line.startsWith('why:')) why = line.slice(4).trim();
  }
  const body = (name: string) => {
    const lines = sections.get(name);
    if (!lines) return undefined;
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  };
  const evidence = body('evidence');
  const expect = body('expect');
  const tail = body('tail');
  if (why === '') throw new Error('fixture needs a why: line');
  if (evidence === undefined || expect === undefined || tail === undefined) {
    throw new Error('fixture needs --- evidence, --- tail and --- expect');
  }
  const screen = body('screen');
  return {
    why,
    evidence: JSON.parse(evidence) as FixtureCase['evidence'],
    tail: decodeEscapes(tail),
    ...(screen === undefined ? {} : { screen: decodeEscapes(screen) }),
    expect: JSON.parse(expect) as Record<string, unknown>,
  };
}

/** CLI argv for a case; `files` are where the test wrote tail, screen and rows. */
export function fixtureArgv(c: FixtureCase, files: { tail: string; screen?: string; rows?: string }): string[] {
  const ev = c.evidence;
  const argv = ['classify', '--tail', files.tail, '--json', '--all'];
  if (files.screen !== undefined) argv.push('--screen', files.screen);
  if (ev.title !== undefined) argv.push('--title', ev.title);
  if (ev.titleLive) argv.push('--title-live');
  if (ev.titleRestored) argv.push('--title-restored');
  if (ev.titleAt !== undefined) argv.push('--title-at', String(ev.titleAt));
  if (files.rows !== undefined) argv.push('--rows', files.rows);
  if (ev.fg !== undefined) argv.push('--fg', ev.fg);
  if (ev.fgConfirm !== undefined) argv.push('--fg-confirm', ev.fgConfirm);
  if (ev.waitBlockedAt !== undefined) argv.push('--wait-blocked-at', String(ev.waitBlockedAt));
  if (ev.now !== undefined) argv.push('--now', String(ev.now));
  if (ev.exited) argv.push('--exited');
  if (ev.lastOutputAt !== undefined) argv.push('--last-output-at', String(ev.lastOutputAt));
  if (ev.acceptedPrompt) argv.push('--accepted-prompt');
  return argv;
}

/** The keys of `actual` the expectation speaks about (status, isRunningAgent, agentWait always). */
export function pickExpected(
  actual: Record<string, unknown>,
  expected: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { status: actual.status, isRunningAgent: actual.isRunningAgent };
  if ('agentWait' in actual) out.agentWait = actual.agentWait;
  for (const key of ['tuiIdle', 'guard']) if (key in expected) out[key] = actual[key];
  return out;
}
