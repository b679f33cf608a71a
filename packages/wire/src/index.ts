/**
 * `@orca/wire`: the root re-exports `@orca/wire/compat` and the JSON pre-scan
 * ({@link scanJsonShape}). Import the other layers by subpath: `@orca/wire/terminal-stream`,
 * `@orca/wire/rpc`, `@orca/wire/relay-frames`.
 *
 * @example
 * import { checkCompat } from '@orca/wire';
 */
export * from './compat/index.ts';
export { type JsonShape, type JsonShapeLimits, scanJsonShape } from './json-prescan.ts';
