/** Who holds a pane's input: a prompt being delivered (a dispatch, direct or from the queue). */
export interface InputHolder {
  readonly kind: 'dispatch';
  /** The queue item id, or null for a direct `terminal.dispatch`. */
  readonly itemId: number | null;
  /** When it took the pane (ms, the host clock). */
  readonly since: number;
}

/** A held pane: the only way bytes reach the PTY while it lasts. */
export interface InputLease {
  /** Writes into the PTY (never refused by the lock: this lease is the lock). */
  write(data: string): void;
  /** Gives the pane back; the next waiter (FIFO) gets it. Idempotent. */
  release(): void;
  /**
   * Lets raw input through again while still keeping other deliveries out: the prompt's bytes are
   * all written, only its proof is awaited (a human must be able to answer what the prompt raised).
   */
  openRawInput(): void;
}

/**
 * The one writer of a pane. Every path that types into a pane goes through it: a prompt delivery
 * takes the pane for the whole of its final readiness check, paste, submit key and proof; raw input
 * (attached keyboards, the browser's terminal, `terminal send`) is written at once when nobody
 * holds the pane, and **refused** (zero bytes, `false`) while somebody does. Refused rather than
 * held: a key held for seconds lands in a turn the typist never saw (an Esc cancels the prompt
 * just delivered), and a refusal is visible (`WriteUnavailable`, `terminal_input_locked`) while a
 * late key is not.
 */
export interface PaneInput {
  /** Raw input: written now and `true`, or refused (`false`, nothing written) while the pane is held. */
  offer(data: string): boolean;
  /**
   * Waits for the pane (FIFO among waiters) and resolves with the lease, or with null once
   * `signal` aborts (the waiter is dropped, nothing was taken).
   */
  acquire(holder: Omit<InputHolder, 'since'>, signal?: AbortSignal): Promise<InputLease | null>;
  /** The current holder, or null. */
  holder(): InputHolder | null;
  /** When raw input was last written (ms, the host clock), or null before any. */
  lastRawInputAt(): number | null;
}

/**
 * Builds the writer of one pane over `write` (the PTY; read at every call, so a wrapper set on the
 * pane later is honoured).
 *
 * @example
 * const input = createPaneInput((d) => pane.write(d), Date.now);
 * const lease = await input.acquire({ kind: 'dispatch', itemId: null });
 * input.offer('x'); // false: held
 * lease?.release();
 */
export function createPaneInput(write: (data: string) => void, now: () => number): PaneInput {
  let current: { holder: InputHolder; lease: InputLease; rawOpen: boolean } | null = null;
  let lastRaw: number | null = null;
  const waiters: { holder: Omit<InputHolder, 'since'>; grant: (lease: InputLease) => void }[] = [];

  const grantNext = (): void => {
    const next = waiters.shift();
    if (!next) return;
    next.grant(take(next.holder));
  };
  const take = (h: Omit<InputHolder, 'since'>): InputLease => {
    let released = false;
    const lease: InputLease = {
      write(data) {
        if (released) throw new Error('write after release of a pane input lease');
        write(data);
      },
      release() {
        if (released) return;
        released = true;
        if (current?.lease === lease) current = null;
        grantNext();
      },
      openRawInput() {
        if (current?.lease === lease) current.rawOpen = true;
      },
    };
    current = { holder: { ...h, since: now() }, lease, rawOpen: false };
    return lease;
  };

  return {
    offer(data) {
      if (current !== null && !current.rawOpen) return false;
      lastRaw = now();
      write(data);
      return true;
    },
    lastRawInputAt: () => lastRaw,
    acquire(h, signal) {
      if (signal?.aborted) return Promise.resolve(null);
      if (current === null && waiters.length === 0) return Promise.resolve(take(h));
      return new Promise<InputLease | null>((resolve) => {
        const waiter = {
          holder: h,
          grant: (lease: InputLease) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(lease);
          },
        };
        const onAbort = (): void => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          resolve(null);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
      });
    },
    holder: () => current?.holder ?? null,
  };
}
