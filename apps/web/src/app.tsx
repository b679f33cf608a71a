import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Board } from './board.tsx';
import { applyChange, type BoardPane, tabTitle, type VerdictChange } from './board-model.ts';
import { CreatePane } from './create-pane.tsx';
import { type HostCredential, type HostSocket, openHostSocket, socketUrl } from './host-socket.ts';
import { newlyWaiting, notifyWaiting } from './notify.ts';
import { PaneTerminal } from './pane-terminal.tsx';
import type { QueueItem } from './queue-model.ts';
import { forgetToken, keepToken, takeCredential } from './session.ts';

/** Delay before reconnecting a dropped socket (ms). */
const RECONNECT_DELAY_MS = 1_000;

type Connection =
  | { state: 'connecting' }
  | { state: 'unpaired' }
  | { state: 'refused'; message: string }
  | { state: 'ready'; socket: HostSocket }
  | { state: 'reconnecting' };

function paneFromHash(hash: string): string | null {
  const match = /^#pane=(.+)$/.exec(hash);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** The page: pairs (or resumes) with the host, then shows the board or one pane's terminal. */
export function App() {
  const [connection, setConnection] = useState<Connection>({ state: 'connecting' });
  const [panes, setPanes] = useState<BoardPane[]>([]);
  const [open, setOpen] = useState<string | null>(paneFromHash(location.hash));
  const credential = useRef<HostCredential | null>(takeCredential(location, history, sessionStorage));
  const relistRef = useRef<() => Promise<void>>(async () => undefined);
  const [notify, setNotify] = useState(false);
  const previous = useRef<BoardPane[] | null>(null);
  // Why: one `queue.watch` per socket feeds the board's counts and the open pane's queue list.
  const queueListeners = useRef(new Set<(item: QueueItem) => void>());
  const onQueueChange = useCallback((listener: (item: QueueItem) => void) => {
    queueListeners.current.add(listener);
    return () => {
      queueListeners.current.delete(listener);
    };
  }, []);

  const connect = useCallback(async () => {
    const cred = credential.current;
    if (!cred) {
      setConnection({ state: 'unpaired' });
      return;
    }
    let socket: HostSocket;
    try {
      socket = await openHostSocket(socketUrl(location), cred);
    } catch (error) {
      forgetToken(sessionStorage);
      credential.current = null;
      setConnection({ state: 'refused', message: (error as Error).message });
      return;
    }
    if (cred.kind === 'pair') {
      const session = await socket.call<{ sessionId: string; token?: string }>('web.session');
      if (session.token) {
        keepToken(sessionStorage, session.token);
        credential.current = { kind: 'session', token: session.token };
      }
    }
    socket.onClose((event) => {
      if (event.code === 4001) {
        forgetToken(sessionStorage);
        credential.current = null;
        setConnection({ state: 'refused', message: 'this session was revoked' });
        return;
      }
      setConnection({ state: 'reconnecting' });
      setTimeout(() => void connect(), RECONNECT_DELAY_MS);
    });
    // Why: a verdict change updates its row at once; the other fields (title, new panes) come
    // with one re-list per burst of changes. Nothing is polled.
    let listing = false;
    let dirty = false;
    const relist = async (): Promise<void> => {
      if (listing) {
        dirty = true;
        return;
      }
      listing = true;
      try {
        do {
          dirty = false;
          const { panes: list } = await socket.call<{ panes: BoardPane[] }>('terminal.list');
          setPanes(list);
        } while (dirty);
      } catch {
        // the socket closed; the reconnect lists again
      } finally {
        listing = false;
      }
    };
    relistRef.current = relist;
    void socket
      .stream('status.watch', undefined, (event) => {
        setPanes((current) => applyChange(current, event as VerdictChange));
        void relist();
      })
      .catch(() => undefined);
    void socket
      .stream('queue.watch', undefined, (event) => {
        for (const listener of queueListeners.current) listener(event as QueueItem);
        void relist();
      })
      .catch(() => undefined);
    await relist();
    setConnection({ state: 'ready', socket });
  }, []);

  useEffect(() => {
    void connect();
    const onHash = (): void => setOpen(paneFromHash(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, [connect]);

  useEffect(() => {
    document.title = tabTitle(panes);
    // Why: the first listing is the baseline; only panes that start waiting after it notify.
    if (notify && previous.current !== null) notifyWaiting(newlyWaiting(previous.current, panes));
    previous.current = panes;
  }, [panes, notify]);

  const toggleNotify = async (on: boolean): Promise<void> => {
    if (on && typeof Notification !== 'undefined' && Notification.permission !== 'granted')
      await Notification.requestPermission();
    setNotify(on && typeof Notification !== 'undefined' && Notification.permission === 'granted');
  };

  const openPane = (handle: string | null): void => {
    history.pushState(null, '', handle ? `#pane=${encodeURIComponent(handle)}` : location.pathname);
    setOpen(handle);
  };

  return (
    <main data-connection={connection.state}>
      <header>
        <h1>
          <button type="button" class="home" onClick={() => openPane(null)}>
            orca
          </button>
        </h1>
        <span class={`connection ${connection.state}`}>{connection.state}</span>
      </header>
      {connection.state === 'unpaired' && <p class="notice">Open the pairing link that `orca start --web` printed.</p>}
      {connection.state === 'refused' && <p class="notice error">{connection.message}</p>}
      {connection.state === 'ready' && open !== null && (
        <PaneTerminal key={open} socket={connection.socket} handle={open} onQueueChange={onQueueChange} />
      )}
      {connection.state === 'ready' && open === null && (
        <>
          <div class="board-tools">
            <CreatePane socket={connection.socket} onCreated={() => void relistRef.current()} />
            <label class="notify">
              <input
                type="checkbox"
                name="notify"
                checked={notify}
                onChange={(e) => void toggleNotify((e.currentTarget as HTMLInputElement).checked)}
              />
              notify me when a pane starts waiting
            </label>
          </div>
          <Board
            panes={panes}
            onOpen={(h) => openPane(h)}
            onRemove={(h) =>
              void connection.socket
                .call('terminal.remove', { handle: h })
                .catch(() => undefined)
                .finally(() => void relistRef.current())
            }
            onResume={(h) =>
              void connection.socket
                .call('resume.run', { handles: [h] })
                .catch(() => undefined)
                .finally(() => void relistRef.current())
            }
          />
        </>
      )}
    </main>
  );
}
