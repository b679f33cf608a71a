import { CLAUDE_ASSUMED_VERSION } from '../constants.ts';

/** First Claude Code version that knows each hook event (1.0.23–2.1.100 drop settings over an unknown one). */
export const CLAUDE_EVENT_FIRST_VERSION: Readonly<Record<string, string>> = {
  PreToolUse: '1.0.23',
  PostToolUse: '1.0.23',
  Stop: '1.0.31',
  SubagentStop: '1.0.41',
  UserPromptSubmit: '1.0.53',
  SessionStart: '1.0.62',
  SubagentStart: '2.0.43',
  PermissionRequest: '2.0.45',
  PostToolUseFailure: '2.0.56',
  TeammateIdle: '2.1.33',
  PostCompact: '2.1.76',
  StopFailure: '2.1.78',
  SessionEnd: '2.1.261',
};

/** `major.minor.patch` → comparable tuple, or null for anything else. */
export function parseVersion(v: string | undefined): [number, number, number] | null {
  const m = v === undefined ? null : /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  if (!m) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** a ≥ b for parsed versions. */
export function versionAtLeast(a: [number, number, number], b: [number, number, number]): boolean {
  for (let i = 0; i < 3; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/**
 * Events of `events` that Claude Code `version` knows; `retire` says whether managed handlers of
 * other events may be removed (only for a known version).
 *
 * @example
 * claudeGate(['Stop', 'SessionEnd'], '2.0.0') // { events: ['Stop'], retire: true }
 */
export function claudeGate(
  events: readonly string[],
  version: string | undefined,
): { events: string[]; retire: boolean } {
  const parsed = parseVersion(version);
  const effective = parsed ?? parseVersion(CLAUDE_ASSUMED_VERSION);
  const known = events.filter((e) => {
    const first = parseVersion(CLAUDE_EVENT_FIRST_VERSION[e]);
    return first !== null && effective !== null && versionAtLeast(effective, first);
  });
  return { events: known, retire: parsed !== null };
}
