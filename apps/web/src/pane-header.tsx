import { type BoardPane, exitText, statusLook } from './board-model.ts';
import type { HostSocket } from './host-socket.ts';
import { PaneWhy } from './pane-why.tsx';

/** The open pane's header: a back link, its name, agent, cwd and status (from the board's listing). */
export function PaneHeader(props: {
  handle: string;
  pane: BoardPane | undefined;
  socket: HostSocket | null;
  onBack(): void;
}) {
  const p = props.pane;
  const look = p ? statusLook(p) : null;
  return (
    <div class="pane-header">
      <button
        type="button"
        class="back"
        title="back to the board (Esc or b outside the terminal)"
        onClick={props.onBack}
      >
        ← board
      </button>
      <strong class="pane-name">{p?.name ?? props.handle}</strong>
      <span class="pane-agent">{p?.agent ?? p?.command ?? ''}</span>
      {look && <span class={`status tone-${look.tone}`}>{look.word}</span>}
      {p?.exited && <span class="exit-code">{exitText(p)}</span>}
      <span class="pane-cwd">{p?.cwd ?? ''}</span>
      {props.socket && <PaneWhy socket={props.socket} handle={props.handle} />}
    </div>
  );
}
