import type { ExplainedTransitionView } from '@orca/wire/contract';
import { useState } from 'preact/hooks';
import type { HostSocket } from './host-socket.ts';

type Explained = ExplainedTransitionView;

/** "Why?": the pane's recent status transitions, each with the rule, authority and evidence (`status.explain`). */
export function PaneWhy(props: { socket: HostSocket; handle: string }) {
  const [open, setOpen] = useState(false);
  // Why: null while the host is asked, so "nothing recorded" is said only when the host says so.
  const [items, setItems] = useState<Explained[] | string | null>(null);
  const load = async (): Promise<void> => {
    setItems(null);
    try {
      const r = await props.socket.call('status.explain', {
        handle: props.handle,
        limit: 5,
      });
      setItems(r.transitions.reverse());
    } catch (error) {
      setItems((error as Error).message);
    }
  };
  return (
    <div class="pane-why">
      <button
        type="button"
        class="why"
        title="why this status: the rule and evidence of each recent change"
        onClick={() => {
          if (!open) void load();
          setOpen(!open);
        }}
      >
        why?
      </button>
      {open && typeof items === 'string' && <p class="notice error">{items}</p>}
      {open && items === null && <p class="notice why-loading">Looking up the recent status changes…</p>}
      {open && Array.isArray(items) && (
        <ol class="why-list">
          {items.length === 0 && <li>No status change recorded yet.</li>}
          {items.map((t) => {
            const e = t.explanation;
            return (
              <li key={t.at} data-rule={e.rule}>
                <strong>
                  {t.from ?? '—'} → {t.to ?? '—'}
                </strong>{' '}
                at {new Date(t.at).toLocaleTimeString()}: rule <code>{e.rule}</code> ({e.authority})
                {e.evidence.row && (
                  <div>
                    {e.evidence.row.via} row: {e.evidence.row.source} {e.evidence.row.state}
                  </div>
                )}
                {e.evidence.screen && (
                  <pre class="why-screen">{`${e.evidence.screen.reason}\n${e.evidence.screen.lines.join('\n')}`}</pre>
                )}
                {e.evidence.title && <div>title: {e.evidence.title.text}</div>}
                {e.evidence.process && <div>process in front: {e.evidence.process.agent ?? 'no agent'}</div>}
                {e.overrode.map((o) => (
                  <div key={o}>overrode: {o}</div>
                ))}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
