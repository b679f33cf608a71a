// The shape of a replayed session of the fleet bench.

/** One write into the PTY at `at` ms into the session's cycle. */
export interface OutputStep {
  readonly at: number;
  readonly bytes: string;
}

/**
 * One hook event POSTed at `at` ms into the cycle. `expect`: the status it brings (the event is
 * timed until the published verdict shows it); null: it changes nothing (not timed).
 */
export interface HookStep {
  readonly at: number;
  readonly event: string;
  readonly payload: Record<string, unknown>;
  readonly expect: 'working' | 'idle' | 'permission' | null;
}

/** `waiting-screen`: a waiting pane whose hooks do not report the permission request (the screen alone shows it). */
export type SessionKind = 'working' | 'waiting' | 'waiting-screen' | 'idle' | 'stress';

export interface Session {
  readonly kind: SessionKind;
  /** The hook source its events are POSTed as (`/hook/<source>`). */
  readonly source: string;
  /** Cycle length (ms); 0 = played once, then the pane stays quiet. */
  readonly periodMs: number;
  readonly output: readonly OutputStep[];
  readonly hooks: readonly HookStep[];
  /** Words of its permission menu written in one piece (the bench times the menu by them). */
  readonly menuMarker: string;
  /** Times (ms into the cycle) at which a permission menu appears on screen. */
  readonly menuAt: readonly number[];
}
