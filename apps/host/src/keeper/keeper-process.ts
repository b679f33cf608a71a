import type { KeeperClient } from '@orca/keeper';

/** Where a keeper pane's input and controls go: the current link, or a queue while it is reattached. */
export type KeeperSink = Pick<KeeperClient, 'write' | 'resize' | 'kill' | 'flow' | 'closed'>;

import type { PaneExit, PaneProcess } from '../panes/pane-process.ts';

/** A pane process held by the keeper, as the host drives it; {@link ready} lets its output flow. */
export interface KeeperProcess extends PaneProcess {
  /**
   * Called by the link with each chunk of the pane's output and its position after it. Before
   * {@link ready}, chunks are held; chunks at or before the ready position are dropped (the replay
   * had them).
   */
  data(chunk: string, to: number): void;
  exit(exit: PaneExit): void;
  /** Output up to `position` is accounted for (the replay, or nothing for a new pane): flow starts. */
  ready(position: number): void;
  /** The output position the pane has had up to (null before {@link ready}). */
  position(): number | null;
  /** The host asked the keeper to pause it (its emulator is behind); said again after a reattach. */
  paused(): boolean;
}

/**
 * The {@link PaneProcess} of keeper pane `id` (pid `pid`): writes, resizes, signals and flow
 * control go over the keeper link as notifications, in order; output and the exit come back
 * through {@link KeeperProcess.data} and {@link KeeperProcess.exit}.
 */
export function keeperProcess(client: KeeperSink, id: string, pid: number): KeeperProcess {
  const dataListeners: ((chunk: string) => void)[] = [];
  const exitListeners: ((exit: PaneExit) => void)[] = [];
  let exited: PaneExit | null = null;
  let position: number | null = null;
  const held: { chunk: string; to: number }[] = [];
  let heldExit: PaneExit | null = null;
  let paused = false;
  const emit = (chunk: string, to: number): void => {
    if (position !== null && to <= position) return;
    // Why: a chunk that straddles the ready position carries only its new part.
    const fresh =
      position !== null && to - chunk.length < position ? chunk.slice(position - (to - chunk.length)) : chunk;
    position = to;
    for (const l of dataListeners) l(fresh);
  };
  const finish = (exit: PaneExit): void => {
    if (exited) return;
    exited = exit;
    for (const l of exitListeners) l(exit);
  };
  return {
    pid,
    kept: true,
    write(data) {
      if (!exited && !client.closed) client.write(id, data);
    },
    resize(cols, rows) {
      if (!exited && !client.closed) client.resize(id, cols, rows);
    },
    kill(signal) {
      if (!exited && !client.closed) client.kill(id, signal);
    },
    pause() {
      paused = true;
      if (!exited && !client.closed) client.flow(id, true);
    },
    resume() {
      paused = false;
      if (!exited && !client.closed) client.flow(id, false);
    },
    paused: () => paused,
    onData(listener) {
      dataListeners.push(listener);
    },
    onExit(listener) {
      exitListeners.push(listener);
    },
    data(chunk, to) {
      if (position === null) held.push({ chunk, to });
      else emit(chunk, to);
    },
    exit(exit) {
      if (position === null) heldExit = exit;
      else finish(exit);
    },
    position: () => position,
    ready(at) {
      if (position !== null) return;
      position = at;
      for (const h of held.splice(0)) emit(h.chunk, h.to);
      if (heldExit) finish(heldExit);
    },
  };
}
