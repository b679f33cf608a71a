/**
 * `@orca/wire/compat`: protocol versions, the `status.get` compatibility verdict and tri-state fields.
 *
 * @example
 * import { RUNTIME_PROTOCOL_VERSION } from '@orca/wire/compat';
 */
export {
  MIN_COMPATIBLE_RUNTIME_CLIENT_VERSION,
  MIN_COMPATIBLE_RUNTIME_SERVER_VERSION,
  RELAY_PROTOCOL_VERSION,
  RUNTIME_PROTOCOL_VERSION,
} from './versions.ts';
