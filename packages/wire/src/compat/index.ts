/**
 * `@orca/wire/compat`: protocol versions, the `status.get` compatibility verdict and tri-state fields.
 *
 * @example
 * import { checkCompat, RUNTIME_PROTOCOL_VERSION } from '@orca/wire/compat';
 * const { verdict } = checkCompat(
 *   { runtimeProtocolVersion: RUNTIME_PROTOCOL_VERSION, minCompatibleRuntimeServerVersion: 3, appVersion: '1.0.0' },
 *   statusGetResult,
 * );
 */
export {
  type CompatClient,
  CompatClientSchema,
  type CompatVerdict,
  type CompatWarning,
  checkCompat,
  isCapabilityName,
  type StatusGetResult,
  StatusGetResultSchema,
} from './status.ts';
export { readTri, type Tri, triFrom, writeTri } from './tri.ts';
export {
  MIN_COMPATIBLE_RUNTIME_CLIENT_VERSION,
  MIN_COMPATIBLE_RUNTIME_SERVER_VERSION,
  RELAY_PROTOCOL_VERSION,
  RUNTIME_PROTOCOL_VERSION,
} from './versions.ts';
