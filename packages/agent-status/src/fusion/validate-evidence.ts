import { invalidEvidence } from '../errors.ts';
import type { PaneEvidence } from '../types.ts';

/** Throw `ORCA_STATUS_INVALID_EVIDENCE` when the caller broke the evidence contract. */
export function assertEvidence(e: PaneEvidence): void {
  if (e === null || typeof e !== 'object') invalidEvidence('evidence', 'an object', e);
  if (typeof e.now !== 'number' || !Number.isFinite(e.now)) invalidEvidence('now', 'a finite number', e.now);
  if (e.waitBlockedAt !== null && (typeof e.waitBlockedAt !== 'number' || !Number.isFinite(e.waitBlockedAt))) {
    invalidEvidence('waitBlockedAt', 'a finite number or null', e.waitBlockedAt);
  }
  if (
    e.promptSeenAt !== undefined &&
    e.promptSeenAt !== null &&
    (typeof e.promptSeenAt !== 'number' || !Number.isFinite(e.promptSeenAt))
  ) {
    invalidEvidence('promptSeenAt', 'a finite number, null or absent', e.promptSeenAt);
  }
  if (typeof e.ptyId !== 'string' || e.ptyId === '') invalidEvidence('ptyId', 'a non-empty string', e.ptyId);
}
