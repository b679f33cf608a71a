/**
 * `@orca/relay/listener`: the loopback hook listener (host and guests), endpoint-file writer,
 * body validation and the host trust boundary.
 *
 * @example
 * import { createHookListener, writeEndpointFile, HOOK_PROTOCOL_VERSION } from '@orca/relay/listener';
 * const listener = createHookListener({ token, onEvent: (e) => console.log(e.source, e.paneKey) });
 * const { port } = await listener.start();
 * await writeEndpointFile(dir, { port, token, env: 'local', version: HOOK_PROTOCOL_VERSION }, { format: 'env' });
 */

export * as limits from '../constants.ts';
export { HOOK_PROTOCOL_VERSION } from '../constants.ts';
export { RELAY_ERROR_CODES, RelayError, type RelayErrorCode } from '../errors.ts';
export { type DecodedHookBody, decodeHookBody, type HookBodyInput } from './decode-body.ts';
export {
  ENDPOINT_VALUE_RE,
  type EndpointFormat,
  type EndpointValues,
  endpointFileName,
  renderEndpointFile,
  writeEndpointFile,
} from './endpoint-file.ts';
export {
  createHookListener,
  type HookListener,
  type HookListenerOptions,
  type HookListenerStats,
} from './hook-listener.ts';
export { parseLimitedJson } from './json-limits.ts';
export { HOOK_SOURCES, type HookSource, isHookSource } from './sources.ts';
export { acceptRelayed, type RelayedDropReason } from './trust-boundary.ts';
export {
  type BodyDropReason,
  DROP_REASONS,
  type DropReason,
  type HookEvent,
  type RelayClock,
  type RelayedEvent,
  type RelayLog,
  silentLog,
  systemClock,
  type WireHookEvent,
} from './types.ts';
export { isPaneKey, METADATA_KEYS, type ValidationResult, validateHookBody } from './validate.ts';
