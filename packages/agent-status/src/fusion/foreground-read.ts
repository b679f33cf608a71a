import type { AgentId } from '../agent-ids.ts';
import { isShellName } from '../title/agent-names.ts';
import type { PaneEvidence } from '../types.ts';
import type { ProbeGate, ProbeReading } from './probe-gate.ts';
import { recognise } from './recognise.ts';

/** What the foreground probe said, read at most once per evaluation. */
export interface ForegroundView {
  /** The gate timed out or the probe rejected. */
  unreadable: boolean;
  /** Agent recognised by the cheap read or the confirmer. */
  agent: AgentId | null;
  /** A shell is in front and the confirmer recognises no agent. */
  shellOwns: boolean;
}

export const NO_PROBE: ForegroundView = Object.freeze({ unreadable: false, agent: null, shellOwns: false });
/** What the probe answered in one evaluation (absent: not read, or it failed or timed out). */
export interface ProbeAnswers {
  read: string | null;
  confirm?: string | null;
}

/** The foreground read of one evaluation (at most once), and what the probe answered to it. */
export interface ForegroundReader {
  (): Promise<ForegroundView>;
  answers(): ProbeAnswers | undefined;
}

const NO_PROBE_READ: ForegroundReader = Object.assign(() => Promise.resolve(NO_PROBE), { answers: () => undefined });

export function readForeground(e: PaneEvidence, gate: ProbeGate): ForegroundReader {
  const probe = e.probe;
  if (!probe) return NO_PROBE_READ;
  let memo: Promise<ForegroundView> | undefined;
  let answers: ProbeAnswers | undefined;
  const read = () => {
    memo ??= (async (): Promise<ForegroundView> => {
      let reading: ProbeReading | 'timeout';
      try {
        reading = await gate.run(e.ptyId, probe);
      } catch {
        return { unreadable: true, agent: null, shellOwns: false };
      }
      if (reading === 'timeout') return { unreadable: true, agent: null, shellOwns: false };
      answers = { read: reading.cheap, ...(probe.confirm ? { confirm: reading.confirmed } : {}) };
      const confirmedAgent = recognise(reading.confirmed);
      const agent = recognise(reading.cheap) ?? confirmedAgent;
      const firstToken = reading.cheap?.trim().split(/\s+/)[0];
      const shellOwns = firstToken !== undefined && firstToken !== '' && isShellName(firstToken) && !confirmedAgent;
      return { unreadable: false, agent, shellOwns };
    })();
    return memo;
  };
  return Object.assign(read, { answers: () => answers });
}
