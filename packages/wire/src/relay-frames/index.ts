/**
 * `@orca/wire/relay-frames`: the relay sentinel, 13-byte relay frames, a linear decoder and a
 * JSON-RPC 2.0 channel with keepalives, timeouts and dead-link detection.
 *
 * @example
 * import { SentinelScanner, createRelayChannel } from '@orca/wire/relay-frames';
 * const scanner = new SentinelScanner();
 * const scan = scanner.push(firstChunk);
 * if (scan.kind === 'found') {
 *   const channel = createRelayChannel({ write, policy: 'close', initialBytes: scan.rest });
 *   channel.start();
 * }
 */
export { createManualClock, systemClock, type WireClock } from '../clock.ts';
export { RELAY_PROTOCOL_VERSION } from '../compat/versions.ts';
export { WIRE_ERROR_CODES, WireError, type WireErrorCode } from '../errors.ts';
export { RELAY_LIMITS } from '../limits.ts';
export { RECEIVE_POLICIES, type ReceivePolicy } from '../receive-policy.ts';
export { createRelayChannel } from './channel.ts';
export type {
  NotificationHandler,
  RelayChannel,
  RelayChannelOptions,
  RelayChannelRejectReason,
  RelayChannelStats,
  RelayRequestOptions,
  RequestHandler,
} from './channel-types.ts';
export {
  RELAY_REJECT_REASONS,
  type RelayDecodeResult,
  RelayFrameDecoder,
  type RelayReject,
  type RelayRejectReason,
} from './decoder.ts';
export {
  encodeRelayFrame,
  isRelayFrameType,
  nextRelaySeq,
  type RelayFrame,
  RelayFrameType,
  type RelayFrameTypeNumber,
  relaySeqAfter,
} from './frame.ts';
export { encodeHandshake, parseHandshake, type RelayHandshake } from './handshake.ts';
export { type JsonRpcMessage, type JsonRpcRejectReason, parseJsonRpcPayload } from './jsonrpc-message.ts';
export {
  canonicalNodeCode,
  errnoOf,
  fromJsonRpcError,
  JSONRPC_ERROR_CODES,
  LINK_ERROR_CODES,
  LinkError,
  type LinkErrorCode,
  NODE_CODE_TABLE,
  RemoteError,
  toJsonRpcError,
} from './link-errors.ts';
export { relaySentinel, type SentinelScan, SentinelScanner } from './sentinel.ts';
