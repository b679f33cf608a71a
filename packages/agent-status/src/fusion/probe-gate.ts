import { PROBE_TIMEOUT_MS } from '../limits.ts';
import type { ForegroundProbe } from '../types.ts';

/** What one foreground probe saw: the cheap read and the confirmer's answer. */
export interface ProbeReading {
  cheap: string | null;
  confirmed: string | null;
}

/** Sleep used for the bound; resolves after `ms`, and must release its timer when `signal` aborts. */
export type Delay = (ms: number, signal: AbortSignal) => Promise<void>;

/** Bounded, single-flight foreground probing per PTY. */
export interface ProbeGate {
  run(ptyId: string, probe: ForegroundProbe): Promise<ProbeReading | 'timeout'>;
  /** PTYs with a probe in flight. */
  readonly inFlight: number;
}

// Why: abort() without a reason builds a DOMException with a stack on every evaluation; the reason is never read.
const PROBE_SETTLED = 'probe settled';

/** The default {@link Delay}: a `setTimeout` cleared on abort. */
export const timerDelay: Delay = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Create a probe gate: one in-flight probe per `ptyId` that every caller joins; each caller waits at
 * most `timeoutMs` for read + confirm; the slot clears when the probe settles (resolve or reject).
 *
 * @example
 * const gate = createProbeGate({ timeoutMs: 2000 });
 * const seen = await gate.run('pty-1', { read: async () => 'codex' }); // { cheap: 'codex', confirmed: null }
 */
export function createProbeGate(options: { timeoutMs?: number; delay?: Delay } = {}): ProbeGate {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const delay = options.delay;
  const flights = new Map<string, Promise<ProbeReading>>();

  function start(ptyId: string, probe: ForegroundProbe): Promise<ProbeReading> {
    const flight = (async (): Promise<ProbeReading> => {
      const cheap = await probe.read();
      let confirmed: string | null = null;
      if (probe.confirm) {
        try {
          confirmed = await probe.confirm();
        } catch {
          // Why: a throwing confirmer recognises nothing (§7: the shell owns the pane).
          confirmed = null;
        }
      }
      return {
        cheap: typeof cheap === 'string' ? cheap : null,
        confirmed: typeof confirmed === 'string' ? confirmed : null,
      };
    })();
    const clear = () => {
      if (flights.get(ptyId) === flight) flights.delete(ptyId);
    };
    flight.then(clear, clear);
    flights.set(ptyId, flight);
    return flight;
  }

  return {
    async run(ptyId, probe) {
      const flight = flights.get(ptyId) ?? start(ptyId, probe);
      if (delay === undefined) {
        // Why: the default bound is a plain timer; an AbortController (and its abort event) per
        // probe was a visible share of a host evaluating a thousand panes a second.
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          return await Promise.race([
            flight,
            new Promise<'timeout'>((resolve) => {
              timer = setTimeout(() => resolve('timeout'), timeoutMs);
            }),
          ]);
        } finally {
          clearTimeout(timer);
        }
      }
      const abort = new AbortController();
      try {
        return await Promise.race([flight, delay(timeoutMs, abort.signal).then(() => 'timeout' as const)]);
      } finally {
        abort.abort(PROBE_SETTLED);
      }
    },
    get inFlight() {
      return flights.size;
    },
  };
}

/** The module-level gate `evaluatePane` uses when none is passed. */
export const defaultProbeGate: ProbeGate = createProbeGate({ timeoutMs: PROBE_TIMEOUT_MS });
