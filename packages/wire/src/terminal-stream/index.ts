/**
 * `@orca/wire/terminal-stream`: the binary terminal frame codec, negotiated capabilities, output
 * sequencing, snapshots, flow control, and the host and client sides of `terminal.multiplex`.
 *
 * @example
 * import { createTerminalClient } from '@orca/wire/terminal-stream';
 * const client = createTerminalClient({ type: 'desktop', send, call });
 * const id = client.subscribe({ terminal: 'pane-1', sink: { onOutput: (t) => xterm.write(t) } });
 */
export { createManualClock, systemClock, type WireClock } from '../clock.ts';
export { WIRE_ERROR_CODES, WireError, type WireErrorCode } from '../errors.ts';
export { SNAPSHOT_BUDGETS, TERMINAL_LIMITS } from '../limits.ts';
export { RECEIVE_POLICIES, type ReceivePolicy } from '../receive-policy.ts';
export type { SerializedScreen, TerminalBackend, TerminalPort } from './backend.ts';
export {
  CAPABILITIES,
  CAPABILITY_NAMES,
  type CapabilityInfo,
  type CapabilityName,
  type CapabilityRequest,
  type ClientType,
  defaultRequest,
  echoOf,
  type Grant,
  grantFromEcho,
  type HostConditions,
  isGrant,
  NO_GRANT,
  negotiate,
} from './capabilities.ts';
export { createTerminalClient } from './client.ts';
export type { TerminalClient, TerminalClientOptions, TerminalStreamSink } from './client-types.ts';
export { AckBatcher, FlowControl, type FlowDecision } from './flow-control.ts';
export {
  createFrameDecoder,
  type DecodeResult,
  decodeFrame,
  encodeFrame,
  encodeTextFrame,
  FRAME_REJECT_REASONS,
  type FrameDecoder,
  type FrameRejectReason,
  type ReceiveStats,
  TERMINAL_FRAME_KIND,
  TERMINAL_FRAME_VERSION,
  type TerminalFrame,
} from './frame.ts';
export { createTerminalHost, type TerminalHost, type TerminalHostOptions } from './host.ts';
export { decodeJsonPayload, encodeJsonPayload } from './json-payload.ts';
export {
  type FrameDirection,
  KNOWN_OPCODES,
  OPCODE_INFO,
  Opcode,
  type OpcodeInfo,
  type OpcodeName,
  type OpcodeNumber,
  opcodeInfo,
  type PayloadKind,
} from './opcodes.ts';
export { classifyOutput, type OutputClass, splitOutput } from './output.ts';
export {
  fitViewport,
  parseAck,
  parseMetadata,
  parseOutputSpan,
  parseResized,
  parseSetOutputPaused,
  parseSnapshotRequest,
  parseSubscribe,
  parseTerminalEvent,
  parseViewport,
  type SubscribePayload,
  type TerminalEvent,
} from './payloads.ts';
export type { AssembledSnapshot, SnapshotRoute } from './snapshot-assembly.ts';
export { buildSnapshotMeta, parseSnapshotMeta, type SnapshotMeta, type SnapshotMetaInput } from './snapshot-meta.ts';
export { decodeTextPayload, encodeTextPayload } from './text-codec.ts';
