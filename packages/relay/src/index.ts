/**
 * `@orca/relay`: the loopback hook listener, the guest relay and the guest manager.
 * The root re-exports the listener; import `/guest` and `/manager` for the rest.
 *
 * @example
 * import { createHookListener } from '@orca/relay';
 */
export * from './listener/index.ts';
