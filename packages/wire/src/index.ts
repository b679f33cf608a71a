/**
 * `@orca/wire`: the root re-exports `@orca/wire/compat`. Import the other layers by subpath:
 * `@orca/wire/terminal-stream`, `@orca/wire/rpc`, `@orca/wire/relay-frames`.
 *
 * @example
 * import { checkCompat } from '@orca/wire';
 */
export * from './compat/index.ts';
