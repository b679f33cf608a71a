import type { CapturePolicy, ExtraField, ProtocolOutput } from '../agents/descriptor.ts';
import type { AgentId, HookSource } from '../agents/sources.ts';

/** Where a script runs: host OS and script dialect (`windows` + `sh` = Git Bash). */
export interface Target {
  os: 'posix' | 'windows';
  dialect: 'sh' | 'batch' | 'pwsh';
}

/** Body encoding of the POST: URL-encoded form, or the run-time raw JSON branch (sh only). */
export type Transport = 'form' | 'raw-json-v1';

/** One step of the stdin-ownership IR (spec §3). */
export type Step =
  | { op: 'protocolOutput'; out: ProtocolOutput }
  | { op: 'captureStdin'; policy: CapturePolicy; boundedIf?: string }
  | { op: 'skipIf'; env: string; holdsStdin: boolean }
  | { op: 'recoverEnv' }
  | { op: 'spool' }
  | { op: 'refreshEndpoint' }
  | { op: 'guardEnv' }
  | {
      op: 'post';
      source: HookSource;
      transport: Transport;
      extras: readonly ExtraField[];
      maxTimeS: number;
    }
  | { op: 'exit' };

/** A step's `op`. */
export type StepOp = Step['op'];

/** One validated plan per (agent, target). */
export interface Plan {
  agent: AgentId;
  target: Target;
  steps: readonly Step[];
}

/** Violation classes of {@link Plan}s (spec §3). */
export const VIOLATION_CODES = [
  'capture-count',
  'step-before-capture',
  'read-before-guard',
  'order',
  'recover-before-capture',
  'unsupported',
  'transport-extras',
  'exit-not-last',
] as const;

/** One violation class. */
export type ViolationCode = (typeof VIOLATION_CODES)[number];

/** One contract violation of a plan, with the offending step index when there is one. */
export interface Violation {
  code: ViolationCode;
  step?: number;
  detail: string;
}
