// Sessions of the fleet bench replayed from real recordings of the agents lab
// (tests/agents-lab `pnpm record <agent>`): the agent's PTY writes and the hook payloads its hooks
// posted, each with its time, cut into the segments the recorder marked.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HookStep, OutputStep, Session, SessionKind } from './session-types.ts';

/** A recording as `tests/agents-lab/src/cli/record.ts` writes it. */
interface Recording {
  readonly agent: string;
  readonly build: string;
  readonly version: string;
  readonly menuMarker: string;
  readonly segments: Record<'working' | 'waiting', { readonly from: number; readonly to: number }>;
  readonly output: readonly { readonly at: number; readonly bytes: string }[];
  readonly hooks: readonly { readonly at: number; readonly event: string; readonly payload: Record<string, unknown> }[];
}

const RECORDINGS_DIR = fileURLToPath(new URL('./recordings/', import.meta.url));
/** The agent sits at its prompt this long between two cycles of a segment (ms). */
const CYCLE_GAP_MS = 2_000;
/** The status each hook event brings (Claude and Codex share names; Gemini's are its own). */
const EXPECT: Readonly<Record<string, HookStep['expect']>> = {
  UserPromptSubmit: 'working',
  Stop: 'idle',
  PermissionRequest: 'permission',
  BeforeAgent: 'working',
  AfterAgent: 'idle',
};

let cached: readonly Recording[] | undefined;
/** Every recording, in a stable order (by file name). */
function recordings(): readonly Recording[] {
  cached ??= existsSync(RECORDINGS_DIR)
    ? readdirSync(RECORDINGS_DIR)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => JSON.parse(readFileSync(join(RECORDINGS_DIR, name), 'utf8')) as Recording)
    : [];
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
 * The `segment` of the `index`-th recording (cycling through them) as a replayed session, or null
 * without recordings. `dropEvents` leaves hook events out (a setup whose hooks do not report
 * them: the screen alone tells the verdict then).
 */
export function recordedSession(
  segment: 'working' | 'waiting',
  opts: { kind: SessionKind; index: number; dropEvents?: readonly string[] },
): Session | null {
  const all = recordings();
  const rec = all[opts.index % all.length];
  if (!rec) return null;
  const { from, to } = rec.segments[segment];
  const within = (at: number): boolean => at >= from && at < to;
  const output = rec.output.filter((o) => within(o.at)).map((o) => ({ at: o.at - from, bytes: o.bytes }));
  const hooks = rec.hooks
    .filter((h) => within(h.at) && !(opts.dropEvents ?? []).includes(h.event))
    .map((h) => ({ at: h.at - from, event: h.event, payload: h.payload, expect: EXPECT[h.event] ?? null }));
  return {
    kind: opts.kind,
    source: rec.agent,
    periodMs: to - from + CYCLE_GAP_MS,
    output,
    hooks,
    menuMarker: rec.menuMarker,
    menuAt: markerTimes(output, rec.menuMarker),
  };
}

/** What the replayed sessions come from, for the report. */
export function recordingLabel(): string {
  const all = recordings();
  return all.length > 0 ? `recorded ${all.map((r) => `${r.build} ${r.version}`).join(', ')}` : 'synthetic';
}
