// Sessions of the fleet bench replayed from real recordings of the agents lab
// (tests/agents-lab `pnpm record`): the agent's PTY writes and the hook payloads its hooks posted,
// each with its time, cut into the segments the recorder marked.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HookStep, OutputStep, Session } from './session-types.ts';

/** A recording as `tests/agents-lab/src/cli/record.ts` writes it. */
interface Recording {
  readonly build: string;
  readonly version: string;
  readonly segments: Record<'working' | 'waiting', { readonly from: number; readonly to: number }>;
  readonly output: readonly { readonly at: number; readonly bytes: string }[];
  readonly hooks: readonly { readonly at: number; readonly event: string; readonly payload: Record<string, unknown> }[];
}

/** The recording the bench replays (Claude Code 2.1.332, the lab's newest Claude build). */
const RECORDING = fileURLToPath(new URL('./recordings/claude-2.1.332.json', import.meta.url));
/** The agent sits at its prompt this long between two cycles of a segment (ms). */
const CYCLE_GAP_MS = 2_000;
/** The status each hook event brings; an event not listed changes nothing (not timed). */
const EXPECT: Readonly<Record<string, HookStep['expect']>> = {
  UserPromptSubmit: 'working',
  Stop: 'idle',
  PermissionRequest: 'permission',
};

let cached: Recording | null | undefined;
function recording(): Recording | null {
  if (cached === undefined)
    cached = existsSync(RECORDING) ? (JSON.parse(readFileSync(RECORDING, 'utf8')) as Recording) : null;
  return cached;
}

/** Where `marker` is first written in each run of output (a PTY read may split it). */
function markerTimes(output: readonly OutputStep[], marker: string): number[] {
  const at: number[] = [];
  let carry = '';
  for (const step of output) {
    const text = carry + step.bytes;
    if (text.includes(marker)) {
      at.push(step.at);
      carry = '';
    } else carry = text.slice(-(marker.length - 1));
  }
  return at;
}

/**
 * The `kind` segment of the recording as a replayed session, or null without a recording.
 * `dropEvents` leaves hook events out (a setup whose hooks do not cover them: the screen alone
 * tells the verdict then).
 */
export function recordedSession(
  kind: 'working' | 'waiting',
  opts: { name: Session['kind']; menuMarker: string; dropEvents?: readonly string[] },
): Session | null {
  const rec = recording();
  if (!rec) return null;
  const { from, to } = rec.segments[kind];
  const within = (at: number): boolean => at >= from && at < to;
  const output = rec.output.filter((o) => within(o.at)).map((o) => ({ at: o.at - from, bytes: o.bytes }));
  const hooks = rec.hooks
    .filter((h) => within(h.at) && !(opts.dropEvents ?? []).includes(h.event))
    .map((h) => ({ at: h.at - from, event: h.event, payload: h.payload, expect: EXPECT[h.event] ?? null }));
  return {
    kind: opts.name,
    periodMs: to - from + CYCLE_GAP_MS,
    output,
    hooks,
    menuAt: markerTimes(output, opts.menuMarker),
  };
}

/** What the replayed sessions come from, for the report. */
export function recordingLabel(): string {
  const rec = recording();
  return rec ? `recorded ${rec.build} ${rec.version}` : 'synthetic (no recording)';
}
