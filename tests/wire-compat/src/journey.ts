import type * as TerminalStream from '@orca/wire/terminal-stream';
import { FakePty } from './fake-pty.ts';
import { renderReference, Screen } from './screen.ts';

/** One build of `@orca/wire/terminal-stream` (the working tree or an extracted baseline). */
export interface WireBuild {
  label: string;
  version: string;
  mod: typeof TerminalStream;
}

/** What a journey observed. */
export interface JourneyResult {
  /** Barriers reached, in order. */
  steps: string[];
  /** The barrier that timed out, if any. */
  stalledAt?: string;
  /** `C>H Name` / `H>C Name` per frame (Acks excluded), names from the receiving build's table. */
  frames: string[];
  events: Array<Record<string, unknown>>;
  /** Parsed SnapshotStart metas, in order. */
  snapshotStarts: Array<Record<string, unknown>>;
  /** Capabilities echoed in each `subscribed`, sorted. */
  echoes: string[][];
  /** The client build's grant at each onSubscribed, sorted. */
  clientGrants: string[][];
  pausedResults: boolean[];
  hostRejects: Array<ReturnType<ReturnType<typeof TerminalStream.createTerminalHost>['stats']>>;
  clientStats: ReturnType<ReturnType<typeof TerminalStream.createTerminalClient>['stats']>;
  clientErrors: string[];
  missingBackend: string[];
  ptyInputs: string[];
  renders: Array<{ at: string; rendered: string; expected: string }>;
  ack: { outputBytes: number; ackedBytes: number };
}

const HANDLE = 'pane-1';

function frameName(build: WireBuild, bytes: Uint8Array): string {
  const op = bytes[2] ?? 0;
  const info = (build.mod.OPCODE_INFO as Record<number, { name: string } | undefined>)[op];
  return info?.name ?? `#${op}`;
}

/**
 * Runs the scripted terminal journey between a client build and a host build over an in-memory
 * link: subscribe → snapshot → input → output → hide → reveal (SnapshotRequest 200 rows) → drop →
 * reconnect → snapshot → input → unsubscribe. Each step waits on observed state (no sleeps).
 */
export async function runJourney(
  clientBuild: WireBuild,
  hostBuild: WireBuild,
  options: { barrierMs?: number; hostOpcodes?: number[] } = {},
): Promise<JourneyResult> {
  const barrierMs = options.barrierMs ?? 10_000;
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const pty = new FakePty(notify);
  const screen = new Screen(120, 40, notify);
  const result: JourneyResult = {
    steps: [],
    frames: [],
    events: [],
    snapshotStarts: [],
    echoes: [],
    clientGrants: [],
    pausedResults: [],
    hostRejects: [],
    clientStats: { accepted: 0, rejected: 0, byReason: {}, unknownOpcodes: {}, errors: [] },
    clientErrors: [],
    missingBackend: [],
    ptyInputs: [],
    renders: [],
    ack: { outputBytes: 0, ackedBytes: 0 },
  };
  let host: ReturnType<typeof hostBuild.mod.createTerminalHost> | undefined;
  const hosts: Array<NonNullable<typeof host>> = [];
  let subscribedCount = 0;
  let snapshotsApplied = 0;
  let ended = 0;
  let ackedRange = 0;
  let ackedBytesSum = 0;
  let rangeMode = false;

  const client = clientBuild.mod.createTerminalClient({
    type: 'desktop',
    clientId: 'harness',
    send: (bytes) => {
      const name = frameName(hostBuild, bytes);
      if (name === 'Ack') {
        const json = JSON.parse(new TextDecoder().decode(bytes.subarray(16))) as Record<string, number>;
        if ('ackedEndByte' in json) {
          rangeMode = true;
          ackedRange = json.ackedEndByte ?? 0;
        } else ackedBytesSum += json.bytes ?? 0;
        // Why: Acks flush on the client's 4 ms timer, after any other event; the ack barrier must re-check.
        queueMicrotask(notify);
      } else result.frames.push(`C>H ${name}`);
      const target = host;
      queueMicrotask(() => target?.receive(bytes));
      return true;
    },
    call: async () => {
      rangeMode = false;
      ackedRange = 0;
      const decoder = options.hostOpcodes
        ? hostBuild.mod.createFrameDecoder({ opcodes: options.hostOpcodes })
        : undefined;
      const created = hostBuild.mod.createTerminalHost({
        backend: pty.backend(HANDLE),
        policy: 'drop',
        ...(decoder ? { decoder } : {}),
        send: (bytes) => {
          const name = frameName(clientBuild, bytes);
          result.frames.push(`H>C ${name}`);
          if (name === 'Output') result.ack.outputBytes += bytes.byteLength - 16;
          if (name === 'SnapshotStart') {
            result.snapshotStarts.push(
              JSON.parse(new TextDecoder().decode(bytes.subarray(16))) as Record<string, unknown>,
            );
          }
          queueMicrotask(() => {
            if (host === created) client.receive(bytes);
          });
          return true;
        },
        emit: (event) => {
          result.events.push(structuredClone(event));
          if (event.type === 'subscribed') {
            const caps = (event.capabilities ?? {}) as Record<string, unknown>;
            result.echoes.push(
              Object.keys(caps)
                .filter((k) => caps[k] === 1)
                .sort(),
            );
          }
          queueMicrotask(() => {
            if (host === created) {
              client.handleEvent(event);
              if (event.type === 'end') ended++;
              notify();
            }
          });
        },
      });
      host = created;
      hosts.push(created);
      return undefined;
    },
  });

  const sink = {
    onSubscribed: (info: { capabilities: readonly string[] }) => {
      subscribedCount++;
      result.clientGrants.push([...info.capabilities].sort());
      notify();
    },
    onSnapshot: (s: { data: string }) => {
      snapshotsApplied++;
      screen.reset(s.data);
      notify();
    },
    onOutput: (text: string) => {
      screen.write(text);
      notify();
    },
    onError: (message: string) => {
      result.clientErrors.push(message);
      notify();
    },
  };

  const barrier = (label: string, done: () => boolean): Promise<void> =>
    new Promise((resolveBarrier, rejectBarrier) => {
      const check = () => {
        if (!done()) return;
        waiters.delete(check);
        clearTimeout(timer);
        result.steps.push(label);
        resolveBarrier();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        result.stalledAt = label;
        rejectBarrier(new Error(`journey stalled at "${label}" after ${barrierMs} ms`));
      }, barrierMs);
      waiters.add(check);
      check();
    });

  const rendered = async (at: string) => {
    await barrier(`rendered: ${at}`, () => !screen.busy && pty.output.length > 0);
    const expected = await renderReference(pty.output, 120, 40);
    await barrier(`render matches: ${at}`, () => !screen.busy && screen.text() === expected);
    result.renders.push({ at, rendered: screen.text(), expected });
  };
  const acked = (at: string) =>
    barrier(`acks cover output: ${at}`, () => {
      const grants = result.clientGrants.at(-1) ?? [];
      if (!grants.includes('ackOutput')) return true;
      return (rangeMode ? ackedRange : ackedBytesSum) === result.ack.outputBytes - outputBytesBeforeConnection;
    });
  let outputBytesBeforeConnection = 0;

  try {
    const first = client.subscribe({ terminal: HANDLE, sink });
    await barrier('subscribed', () => subscribedCount === 1);
    await rendered('initial snapshot');
    client.input(first, 'echo one\r');
    await barrier('input reaches PTY', () => pty.inputs.length === 1);
    await barrier(
      'output arrives',
      () => pty.output.includes('one\r\n$ ') && !screen.busy && screen.text().includes('one'),
    );
    await rendered('first output');
    await acked('first connection');
    result.ack.ackedBytes = rangeMode ? ackedRange : ackedBytesSum;
    result.pausedResults.push(client.setOutputPaused(first, true));
    result.pausedResults.push(client.setOutputPaused(first, false));
    client.requestSnapshot(first, { scrollbackRows: 200 });
    await barrier('reveal snapshot', () => snapshotsApplied === 2);
    await rendered('reveal');
    client.drop();
    host?.close();
    host = undefined;
    outputBytesBeforeConnection = result.ack.outputBytes;
    ackedBytesSum = 0;
    result.steps.push('dropped');
    const second = client.subscribe({ terminal: HANDLE, sink });
    await barrier('resubscribed', () => subscribedCount === 2);
    await rendered('reconnect snapshot');
    client.input(second, 'echo two\r');
    await barrier('second input reaches PTY', () => pty.inputs.length === 2);
    await barrier('second output arrives', () => !screen.busy && screen.text().includes('two'));
    await rendered('second output');
    await acked('second connection');
    client.unsubscribe(second);
    await barrier('unsubscribed', () => ended === 1);
  } catch {
    // Why: a stalled barrier is a result (the negative control expects one); the caller asserts.
  } finally {
    result.hostRejects = hosts.map((h) => h.stats());
    result.clientStats = client.stats();
    result.missingBackend = [...pty.missing];
    result.ptyInputs = [...pty.inputs];
    for (const h of hosts) h.close();
    screen.dispose();
  }
  return result;
}
