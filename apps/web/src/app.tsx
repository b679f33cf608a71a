import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Board } from './board.tsx';
import {
  applyChange,
  type BoardPane,
  filterPanes,
  nextWaiting,
  sortPanes,
  stepSelection,
  tabTitle,
  type VerdictChange,
} from './board-model.ts';
import { CreatePane } from './create-pane.tsx';
import { type Fragment, parseFragment } from './fragment.ts';
import { type HostCredential, type HostSocket, openHostSocket, socketUrl } from './host-socket.ts';
import { shortcutFor } from './keys.ts';
import { applyNotifyEvent, chime, type NeedsYou, type NotifyEvent, showNotification } from './notify.ts';
import { PaneHeader } from './pane-header.tsx';
import { PaneTerminal } from './pane-terminal.tsx';
import type { QueueItem } from './queue-model.ts';
import { checkToken, reconnectDelay, refusalText } from './reconnect.ts';
import { forgetToken, keepToken, storedCredential } from './session.ts';

/** Close code of a socket whose session the host ended (revoked or expired; the reason says which). */
const CLOSE_SESSION_ENDED = 4001;

type Connection =
  | { state: 'connecting' }
  | { state: 'unpaired' }
  | { state: 'repair'; message: string }
  | { state: 'ready'; socket: HostSocket }
  | { state: 'reconnecting'; retryAt: number };

/** The pairing code a fragment carries is taken at once and removed from the address bar (and history). */
function takeFragment(): Fragment {
  const fragment = parseFragment(location.hash);
  if (fragment.kind === 'pair') history.replaceState(null, '', `${location.pathname}${location.search}`);
  return fragment;
}

/** The page: pairs (or resumes) with the host, then shows the board or one pane's terminal. */
export function App() {
  const first = useRef<Fragment>(takeFragment());
  const [connection, setConnection] = useState<Connection>({ state: 'connecting' });
  const [panes, setPanes] = useState<BoardPane[]>([]);
  const [open, setOpen] = useState<string | null>(first.current.kind === 'pane' ? first.current.handle : null);
  const [notice, setNotice] = useState<string | null>(first.current.kind === 'bad' ? first.current.message : null);
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const [showKeys, setShowKeys] = useState(false);
  const [now, setNow] = useState(Date.now());
  const credential = useRef<HostCredential | null>(
    first.current.kind === 'pair' ? { kind: 'pair', code: first.current.code } : storedCredential(sessionStorage),
  );
  const current = useRef<HostSocket | null>(null);
  const attempt = useRef(0);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const relistRef = useRef<() => Promise<void>>(async () => undefined);
  const [notify, setNotify] = useState(false);
  const notifyRef = useRef(false);
  notifyRef.current = notify;
  const [needsYou, setNeedsYou] = useState<NeedsYou[]>([]);
  // Why: one `queue.watch` per socket feeds the board's counts and the open pane's queue list.
  const queueListeners = useRef(new Set<(item: QueueItem) => void>());
  const onQueueChange = useCallback((listener: (item: QueueItem) => void) => {
    queueListeners.current.add(listener);
    return () => {
      queueListeners.current.delete(listener);
    };
  }, []);

  const repair = useCallback((message: string) => {
    forgetToken(sessionStorage);
    credential.current = null;
    setConnection({ state: 'repair', message });
  }, []);

  const connect = useCallback(async (): Promise<void> => {
    clearTimeout(retryTimer.current);
    const cred = credential.current;
    if (!cred) {
      setConnection({ state: 'unpaired' });
      return;
    }
    // Why: a drop is normal (Wi-Fi, sleep, a host restart); only the host saying no ends the session.
    const retryLater = (): void => {
      const delay = reconnectDelay(attempt.current);
      attempt.current += 1;
      setConnection({ state: 'reconnecting', retryAt: Date.now() + delay });
      retryTimer.current = setTimeout(() => void connect(), delay);
    };
    let socket: HostSocket;
    try {
      socket = await openHostSocket(socketUrl(location), cred);
    } catch {
      if (credential.current !== cred) return;
      if (cred.kind === 'pair') return repair(refusalText('unknown_code'));
      const check = await checkToken(cred.token);
      if (check.kind === 'refused') return repair(refusalText(check.reason));
      return retryLater();
    }
    if (credential.current !== cred) {
      socket.close();
      return;
    }
    current.current = socket;
    attempt.current = 0;
    if (cred.kind === 'pair') {
      const session = await socket.call('web.session').catch(() => null);
      if (session?.token) {
        keepToken(sessionStorage, session.token);
        credential.current = { kind: 'session', token: session.token };
      }
    }
    socket.onClose((event) => {
      if (current.current !== socket) return;
      current.current = null;
      if (event.code === CLOSE_SESSION_ENDED) return repair(refusalText(event.reason || 'revoked'));
      retryLater();
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
          const { panes: list } = await socket.call('terminal.list');
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
        setPanes((list) => applyChange(list, event as VerdictChange));
        void relist();
      })
      .catch(() => undefined);
    // Why: the host decides who needs a human (the prompt on the screen, once per wait); the page
    // shows it, rings and notifies, and marks it answered when the host says it was resolved.
    void socket
      .stream('notify.watch', undefined, (raw) => {
        const event = raw as NotifyEvent;
        setNeedsYou((lines) => applyNotifyEvent(lines, event));
        if (notifyRef.current && (event.kind === 'waiting' || event.kind === 'escalated')) {
          showNotification(event);
          chime();
        }
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
  }, [repair]);

  /** Pairs again with a new code (a link pasted into this open tab): the old socket is let go. */
  const pairWith = useCallback(
    (code: string) => {
      credential.current = { kind: 'pair', code };
      const old = current.current;
      current.current = null;
      old?.close();
      attempt.current = 0;
      setNotice(null);
      setConnection({ state: 'connecting' });
      void connect();
    },
    [connect],
  );

  useEffect(() => {
    void connect();
    const onHash = (): void => {
      const fragment = takeFragment();
      if (fragment.kind === 'pair') {
        pairWith(fragment.code);
        return;
      }
      if (fragment.kind === 'bad') {
        setNotice(fragment.message);
        setOpen(null);
        return;
      }
      setNotice(null);
      setOpen(fragment.kind === 'pane' ? fragment.handle : null);
    };
    addEventListener('hashchange', onHash);
    addEventListener('popstate', onHash);
    return () => {
      removeEventListener('hashchange', onHash);
      removeEventListener('popstate', onHash);
      clearTimeout(retryTimer.current);
    };
  }, [connect, pairWith]);

  useEffect(() => {
    if (connection.state !== 'reconnecting') return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [connection.state]);

  useEffect(() => {
    document.title = tabTitle(panes);
  }, [panes]);

  const toggleNotify = async (on: boolean): Promise<void> => {
    if (on && typeof Notification !== 'undefined' && Notification.permission !== 'granted')
      await Notification.requestPermission();
    setNotify(on && typeof Notification !== 'undefined' && Notification.permission === 'granted');
  };

  const openPane = useCallback((handle: string | null): void => {
    history.pushState(null, '', handle ? `#pane=${encodeURIComponent(handle)}` : location.pathname);
    setNotice(null);
    setOpen(handle);
    if (handle) {
      selectedRef.current = handle;
      setSelected(handle);
    }
  }, []);

  const shown = sortPanes(filterPanes(panes, filter));
  const exitedCount = panes.filter((p) => p.exited).length;
  const socket = connection.state === 'ready' ? connection.socket : null;

  // Why: keys can come faster than renders; the handler reads the latest selection and rows.
  const selectedRef = useRef(selected);
  const shownRef = useRef(shown);
  shownRef.current = shown;
  const select = (handle: string | null): void => {
    selectedRef.current = handle;
    setSelected(handle);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const action = shortcutFor(e, open === null ? 'board' : 'pane');
      if (!action) return;
      e.preventDefault();
      const handles = shownRef.current.map((p) => p.handle);
      const current = selectedRef.current;
      switch (action) {
        case 'down':
        case 'up':
          select(stepSelection(handles, current, action === 'down' ? 1 : -1));
          return;
        case 'open':
          if (current !== null) openPane(current);
          return;
        case 'next-waiting': {
          const next = nextWaiting(panes, open ?? current);
          if (next !== null) openPane(next);
          return;
        }
        case 'back':
          openPane(null);
          return;
        case 'filter':
          document.querySelector<HTMLInputElement>('input.board-filter')?.focus();
          return;
        case 'prompt':
          document.querySelector<HTMLInputElement>('.prompt-box input')?.focus();
          return;
        case 'terminal':
          document.querySelector<HTMLTextAreaElement>('.pane-terminal textarea')?.focus();
          return;
        case 'help':
          setShowKeys((v) => !v);
          return;
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [open, panes, openPane]);

  return (
    <main data-connection={connection.state}>
      <header>
        <h1>
          <button type="button" class="home" onClick={() => openPane(null)}>
            orca
          </button>
        </h1>
        <span class={`connection ${connection.state}`}>{connection.state}</span>
        <button type="button" class="keys-help" title="keyboard shortcuts (?)" onClick={() => setShowKeys((v) => !v)}>
          keys
        </button>
      </header>
      {showKeys && <KeyHelp />}
      {connection.state === 'reconnecting' && (
        <p class="banner reconnecting" role="status">
          Connection to the host lost; retrying in {Math.max(0, Math.ceil((connection.retryAt - now) / 1000))} s.{' '}
          <button type="button" class="retry-now" onClick={() => void connect()}>
            retry now
          </button>
        </p>
      )}
      {needsYou.length > 0 && (
        <ul class="needs-you" aria-label="needs you">
          {needsYou.map((l) => (
            <li key={l.id} data-state={l.state}>
              {l.handle !== null && l.state === 'open' ? (
                <button type="button" class="open-waiting" onClick={() => openPane(l.handle)}>
                  {l.text}
                </button>
              ) : (
                <span>{l.text}</span>
              )}
              {l.state === 'resolved' && <span class="resolved-mark"> ✓ answered</span>}
            </li>
          ))}
        </ul>
      )}
      {notice !== null && (
        <p class="notice error bad-link" role="alert">
          {notice}
        </p>
      )}
      {connection.state === 'unpaired' && (
        <section class="repair">
          <p class="notice">This browser is not paired with the host.</p>
          <RepairHint />
        </section>
      )}
      {connection.state === 'repair' && (
        <section class="repair">
          <p class="notice error repair-reason">{connection.message}</p>
          <RepairHint />
        </section>
      )}
      {(socket !== null || connection.state === 'reconnecting') && open !== null && (
        <>
          <PaneHeader
            handle={open}
            pane={panes.find((p) => p.handle === open)}
            socket={socket}
            onBack={() => openPane(null)}
          />
          {socket !== null && (
            <PaneTerminal
              key={open}
              socket={socket}
              handle={open}
              pane={panes.find((p) => p.handle === open)}
              onQueueChange={onQueueChange}
            />
          )}
        </>
      )}
      {(socket !== null || connection.state === 'reconnecting') && open === null && (
        <>
          <div class="board-tools">
            {socket !== null && <CreatePane socket={socket} onCreated={() => void relistRef.current()} />}
            <input
              class="board-filter"
              name="filter"
              aria-label="filter panes"
              placeholder="filter (/)"
              value={filter}
              onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') (e.currentTarget as HTMLInputElement).blur();
              }}
            />
            {exitedCount > 0 && socket !== null && (
              <button
                type="button"
                class="clear-exited"
                onClick={() =>
                  void Promise.all(
                    panes
                      .filter((p) => p.exited)
                      .map((p) => socket.call('terminal.remove', { handle: p.handle }).catch(() => undefined)),
                  ).finally(() => void relistRef.current())
                }
              >
                clear exited ({exitedCount})
              </button>
            )}
            <label class="notify">
              <input
                type="checkbox"
                name="notify"
                checked={notify}
                onChange={(e) => void toggleNotify((e.currentTarget as HTMLInputElement).checked)}
              />
              notify me (and ring) when a pane needs me
            </label>
          </div>
          <Board
            panes={shown}
            total={panes.length}
            selected={selected}
            onOpen={(h) => openPane(h)}
            onRemove={(h) =>
              void socket
                ?.call('terminal.remove', { handle: h })
                .catch(() => undefined)
                .finally(() => void relistRef.current())
            }
            onResume={(h) =>
              void socket
                ?.call('resume.run', { handles: [h] })
                .catch(() => undefined)
                .finally(() => void relistRef.current())
            }
          />
        </>
      )}
    </main>
  );
}

function RepairHint() {
  return (
    <p class="repair-hint">
      On the host's machine run <code>orca web pair</code> and open the link it prints here (pasting it into this tab is
      enough), or scan its QR code with a phone.
    </p>
  );
}

function KeyHelp() {
  return (
    <dl class="key-help">
      <dt>j / ↓, k / ↑</dt>
      <dd>select the next / previous pane</dd>
      <dt>Enter or o</dt>
      <dd>open the selected pane</dd>
      <dt>n</dt>
      <dd>open the next pane waiting on you</dd>
      <dt>/</dt>
      <dd>filter the board</dd>
      <dt>Esc or b</dt>
      <dd>back to the board (outside the terminal: there Esc goes to the agent)</dd>
      <dt>p, t</dt>
      <dd>focus the prompt box, the terminal</dd>
      <dt>?</dt>
      <dd>show or hide these keys</dd>
    </dl>
  );
}
