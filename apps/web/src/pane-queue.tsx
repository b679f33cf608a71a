import { useEffect, useState } from 'preact/hooks';
import { HostCallError, type HostSocket } from './host-socket.ts';
import { isPending, orderQueue, type QueueItem, queueStateText } from './queue-model.ts';

/**
 * A pane's prompt queue: pending prompts in delivery order (remove, move up or down) and the
 * finished ones with their state and receipt; live from `queue.watch`.
 */
export function PaneQueue(props: {
  socket: HostSocket;
  handle: string;
  /** Subscribes to the page's one `queue.watch` stream; returns the unsubscribe function. */
  onQueueChange: (listener: (item: QueueItem) => void) => () => void;
}) {
  const [items, setItems] = useState<QueueItem[]>([]);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    let alive = true;
    // Why: one move emits an event per pending item; a burst is one list call, not one per event.
    let loading = false;
    let dirty = false;
    const load = async (): Promise<void> => {
      if (loading) {
        dirty = true;
        return;
      }
      loading = true;
      try {
        do {
          dirty = false;
          const r = await props.socket.call('queue.list', { handle: props.handle });
          if (alive) setItems(orderQueue(r.items));
        } while (dirty && alive);
      } catch {
        // the socket closed; the page reconnects and mounts this again
      } finally {
        loading = false;
      }
    };
    void load();
    const off = props.onQueueChange((item) => {
      if (item.handle === props.handle) void load();
    });
    return () => {
      alive = false;
      off();
    };
  }, [props.socket, props.handle, props.onQueueChange]);
  const act = async (run: () => Promise<unknown>): Promise<void> => {
    setProblem('');
    try {
      await run();
    } catch (error) {
      setProblem(error instanceof HostCallError ? `${error.code}: ${error.message}` : String(error));
    }
  };
  if (items.length === 0) return <p class="queue-empty">No queued prompts.</p>;
  const queued = items.filter((i) => i.state === 'queued');
  return (
    <section class="pane-queue" aria-label="prompt queue">
      <h2>Queue ({items.filter(isPending).length} waiting)</h2>
      {problem && <p class="queue-problem">{problem}</p>}
      <ol>
        {items.map((item) => {
          const at = queued.indexOf(item);
          return (
            <li key={item.id} data-id={item.id} data-state={item.state} class={`queue-item state-${item.state}`}>
              <span class="queue-state">{queueStateText(item)}</span>
              <span class="queue-prompt">{item.prompt}</span>
              {item.state === 'queued' && (
                <span class="queue-actions">
                  <button
                    type="button"
                    class="queue-up"
                    aria-label="move up"
                    disabled={at <= 0}
                    onClick={() => void act(() => props.socket.call('queue.move', { id: item.id, position: at }))}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    class="queue-down"
                    aria-label="move down"
                    disabled={at === queued.length - 1}
                    onClick={() => void act(() => props.socket.call('queue.move', { id: item.id, position: at + 2 }))}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    class="queue-remove"
                    aria-label="remove"
                    onClick={() => void act(() => props.socket.call('queue.remove', { id: item.id }))}
                  >
                    ✕
                  </button>
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
