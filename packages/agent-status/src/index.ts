/**
 * `@orca/agent-status`: a pure engine — hooks, titles, OSC 9999, the screen and the foreground
 * process in, one verdict per pane out.
 *
 * @example
 * import { evaluatePane } from '@orca/agent-status';
 * const verdict = await evaluatePane({ now: 1000, ptyId: 'pty-1', waitBlockedAt: null, tail: 'Run this command?\n…' });
 */

export * from './agent-ids.ts';
export * from './blocked-reasons.ts';
export * from './errors.ts';
export * from './fusion/index.ts';
export * from './hooks/index.ts';
export * from './limits.ts';
export * from './osc/index.ts';
export * from './screen/index.ts';
export * from './submit/index.ts';
export * from './title/index.ts';
export type * from './types.ts';
