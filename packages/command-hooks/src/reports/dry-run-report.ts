import { discoverHooks } from '../discover.ts';
import type { EnvMap } from '../env.ts';
import { CommandHooksError } from '../errors.ts';
import { type CanonicalEvent, EVENT_PAYLOAD_SCHEMAS, EVENT_TRAITS, isCanonicalEvent } from '../events.ts';
import { formatZodIssues } from '../internal/zod-issues.ts';
import type { MergedOutcome } from '../outcome.ts';
import type { HookRecord } from '../records.ts';
import { createCommandHookRunner } from '../runner.ts';
import type { AsyncOutcomeEvent, FailurePolicy } from '../runner-types.ts';
import type { ListReport } from './list-report.ts';

/** What a dry run prints with `--json`: the merged outcome, every record, the config issues. */
export interface DryRunReport {
  event: CanonicalEvent;
  /** The merged outcome of a blocking event; null for a detached one. */
  outcome: MergedOutcome | null;
  asyncOutcomes: AsyncOutcomeEvent[];
  records: HookRecord[];
  warnings: ListReport['warnings'];
  errors: ListReport['errors'];
}

/** Options of {@link buildDryRunReport}. */
export interface DryRunOptions {
  root: string;
  home: string;
  /** A canonical event name (checked). */
  event: string;
  /** The payload JSON text (checked against the event's schema). */
  payloadText: string;
  conversationId?: string;
  /** `vendor` or `strict` (checked). */
  policy?: string;
  baseEnv?: EnvMap;
}

/** The event and payload of a dry run, or `ORCA_CMDHOOKS_USAGE` / `ORCA_CMDHOOKS_PAYLOAD_INVALID`. */
function checkedInput(o: DryRunOptions): { event: CanonicalEvent; payload: unknown; policy: FailurePolicy } {
  if (!isCanonicalEvent(o.event)) {
    throw new CommandHooksError(
      'ORCA_CMDHOOKS_USAGE',
      `--event: expected a canonical event, got ${JSON.stringify(o.event)}`,
      {
        context: { event: o.event },
      },
    );
  }
  const policy = o.policy ?? 'vendor';
  if (policy !== 'vendor' && policy !== 'strict') {
    throw new CommandHooksError(
      'ORCA_CMDHOOKS_USAGE',
      `--policy: expected vendor or strict, got ${JSON.stringify(policy)}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(o.payloadText);
  } catch (cause) {
    throw new CommandHooksError(
      'ORCA_CMDHOOKS_PAYLOAD_INVALID',
      `--payload: invalid JSON: ${o.payloadText.slice(0, 200)}`,
      {
        cause,
      },
    );
  }
  const parsed = EVENT_PAYLOAD_SCHEMAS[o.event].safeParse(raw);
  if (!parsed.success) {
    const first = formatZodIssues(parsed.error, raw, '')[0];
    throw new CommandHooksError(
      'ORCA_CMDHOOKS_PAYLOAD_INVALID',
      `invalid ${o.event} payload ${first?.message ?? ''}`.trim(),
      {
        context: { event: o.event },
      },
    );
  }
  return { event: o.event, payload: parsed.data, policy };
}

/**
 * Runs every matching hook of one event for real (as the host would) and reports what happened.
 * Bad input throws a {@link CommandHooksError} before anything runs.
 *
 * @example
 * const report = await buildDryRunReport({ root: '.', home, event: 'toolGate', payloadText: '{"toolName":"run_shell","input":{}}' });
 */
export async function buildDryRunReport(o: DryRunOptions): Promise<DryRunReport> {
  const { event, payload, policy } = checkedInput(o);
  const found = await discoverHooks(o.root, { home: o.home });
  const records: HookRecord[] = [];
  const asyncOutcomes: AsyncOutcomeEvent[] = [];
  const runner = createCommandHookRunner({
    hooks: found.hooks,
    failurePolicy: policy,
    record: (r) => records.push(r),
    onAsyncOutcome: (a) => asyncOutcomes.push(a),
    ...(o.baseEnv ? { baseEnv: o.baseEnv } : {}),
  });
  const ctx = o.conversationId === undefined ? {} : { conversationId: o.conversationId };
  let outcome: MergedOutcome | null = null;
  if (EVENT_TRAITS[event].dispatch === 'blocking') {
    // Why: the schema table is keyed by the same event, so the payload matches it.
    outcome = await runner.emit(event as 'toolGate', payload as never, ctx);
  } else {
    runner.emitDetached(event, payload as never, ctx);
  }
  await runner.whenIdle();
  return { event, outcome, asyncOutcomes, records, warnings: [...found.warnings], errors: [...found.errors] };
}
