// Why a pane is blocked on a prompt (vocabulary, not limits).

const REASON_STEMS = [
  'update-prompt',
  'trust-workspace',
  'cwd-prompt',
  'hooks-review-prompt',
  'interactive-prompt',
] as const;

/** Every blocked reason; both spellings are permanent. */
export const BLOCKED_REASONS = [
  ...REASON_STEMS.map((s) => `codex-${s}` as const),
  ...REASON_STEMS.map((s) => `agent-${s}` as const),
  'codex-model-migration-prompt',
  'agent-approval-prompt',
] as const;
/** Why a pane is blocked on a prompt. */
export type BlockedReason = (typeof BLOCKED_REASONS)[number];

/** Is `x` a blocked reason in either spelling? */
export function isBlockedReason(x: unknown): x is BlockedReason {
  return typeof x === 'string' && (BLOCKED_REASONS as readonly string[]).includes(x);
}

/**
 * The kind of a reason: `approval` (bottom-owning menus, hold with no timestamp) or `modal`.
 *
 * @example
 * reasonKind('agent-approval-prompt'); // 'approval'
 */
export function reasonKind(reason: BlockedReason): 'approval' | 'modal' {
  return reason === 'agent-approval-prompt' ? 'approval' : 'modal';
}

/**
 * The spelling old clients know: `agent-x` → `codex-x` where `codex-x` exists; others unchanged.
 *
 * @example
 * legacyBlockedReason('agent-trust-workspace'); // 'codex-trust-workspace'
 */
export function legacyBlockedReason(reason: BlockedReason): BlockedReason {
  if (reason.startsWith('agent-')) {
    const legacy = `codex-${reason.slice('agent-'.length)}`;
    if (isBlockedReason(legacy)) return legacy;
  }
  return reason;
}
