import type { PaneExit, PaneProcess } from './pane-process.ts';

/** The process of a pane the PTY keeper held: its output flows once the replay is accounted for. */
export interface AdoptedProcess extends PaneProcess {
  /** Output up to `position` is accounted for (the replay): flow starts. */
  ready(position: number): void;
  /** It ended while no host was attached. */
  exit(exit: PaneExit): void;
}

/** A held pane taken over by this host: its process, and the bytes that rebuild its screen. */
export interface AdoptedPane {
  readonly process: AdoptedProcess;
  /** The DEC modes it had set, then its kept output (oldest may be missing: `truncated`). */
  readonly replay: string;
  readonly truncated: boolean;
  /** Output position the replay ends at: call `process.ready(to)` once the replay is written. */
  readonly to: number;
  /** Its PTY size in the keeper (the screen is rebuilt at it). */
  readonly cols: number;
  readonly rows: number;
  /** It ended while no host was attached. */
  readonly exit?: PaneExit;
}
