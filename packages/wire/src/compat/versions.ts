/** Runtime protocol version; bump only for the breaking changes listed in the package README. */
export const RUNTIME_PROTOCOL_VERSION = 3;
/** Oldest client protocol a host of this build still serves. */
export const MIN_COMPATIBLE_RUNTIME_CLIENT_VERSION = 3;
/** Oldest host protocol a client of this build still talks to. */
export const MIN_COMPATIBLE_RUNTIME_SERVER_VERSION = 3;
/** Relay protocol version, carried by the relay sentinel. */
export const RELAY_PROTOCOL_VERSION = '0.1.0';
