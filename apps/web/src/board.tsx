import { useEffect, useState } from 'preact/hooks';
import { type BoardPane, exitText, sortPanes, statusLook, waitText } from './board-model.ts';

function clock(at: number | undefined): string {
  return at === undefined ? '—' : new Date(at).toLocaleTimeString();
}

/** The board: one row per pane, panes waiting on a human first; the selected row is the keyboard's. */
export function Board(props: {
  panes: readonly BoardPane[];
  /** How many panes there are before the filter (the empty text differs). */
  total: number;
  selected: string | null;
  onOpen(handle: string): void;
  onRemove(handle: string): void;
  onResume(handle: string): void;
}) {
  const [now, setNow] = useState(Date.now());
  // Why: only the "waited for" column ages; this re-renders it, it does not ask the host anything.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const rows = sortPanes(props.panes);
  useEffect(() => {
    if (props.selected === null) return;
    document.querySelector(`tr[data-handle="${CSS.escape(props.selected)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [props.selected]);
  if (props.total === 0)
    return (
      <p class="empty">
        No panes yet. Create one with the form above, or in a terminal: <code>orca run -- claude</code> (then{' '}
        <code>orca ls</code> lists it).
      </p>
    );
  if (rows.length === 0) return <p class="empty">No pane matches the filter.</p>;
  return (
    <table class="board">
      <thead>
        <tr>
          <th>name</th>
          <th>agent</th>
          <th>status</th>
          <th>queue</th>
          <th>waiting for</th>
          <th>title</th>
          <th>cwd</th>
          <th>guest</th>
          <th>last change</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => {
          const look = statusLook(p);
          return (
            <tr
              key={p.handle}
              data-handle={p.handle}
              data-status={look.word}
              aria-selected={props.selected === p.handle ? 'true' : 'false'}
              class={`row tone-${look.tone}${props.selected === p.handle ? ' selected' : ''}`}
            >
              <td>
                <button type="button" class="open" onClick={() => props.onOpen(p.handle)}>
                  {p.name ?? p.handle}
                </button>
              </td>
              <td>{p.agent ?? '—'}</td>
              <td>
                <span class={`status tone-${look.tone}`}>{look.word}</span>
                {p.exited && <span class="exit-code">{exitText(p)}</span>}
              </td>
              <td class="queued" data-queued={p.queued ?? 0}>
                {p.queued ? `${p.queued} queued` : ''}
              </td>
              <td class="wait">{waitText(p, now)}</td>
              <td class="title">{p.title ?? ''}</td>
              <td class="cwd">{p.cwd}</td>
              <td>{p.guest ?? 'local'}</td>
              <td>
                {clock(p.changedAt)}
                {p.exited && p.resume && 'argv' in p.resume && (
                  <button
                    type="button"
                    class="resume"
                    title={p.resume.argv.join(' ')}
                    onClick={() => props.onResume(p.handle)}
                  >
                    resume
                  </button>
                )}
                {p.exited && p.resume && 'reason' in p.resume && (
                  <span class="not-resumable" title={p.resume.reason}>
                    not resumable
                  </span>
                )}
                {p.resumedAs && <span class="resumed-as">resumed as {p.resumedAs}</span>}
                {p.exited && (
                  <button type="button" class="remove" onClick={() => props.onRemove(p.handle)}>
                    remove
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
