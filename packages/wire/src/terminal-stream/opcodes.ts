/**
 * Terminal stream opcodes. Numbers are permanent: never renumber or reuse one; every number from
 * 18 on is appended and capability-gated. 16 and 17 arrived in 0.2.0 behind `outputPause` and
 * `writeUnavailable`; a 0.1.0 peer decodes them as `unknown-opcode`, which is why they are gated.
 */
export const Opcode = {
  Output: 1,
  SnapshotStart: 2,
  SnapshotChunk: 3,
  SnapshotEnd: 4,
  Resized: 5,
  Error: 6,
  Input: 7,
  Resize: 8,
  Subscribe: 9,
  Unsubscribe: 10,
  SnapshotRequest: 11,
  Metadata: 12,
  Ack: 13,
  ClaimViewport: 14,
  OutputSpan: 15,
  SetOutputPaused: 16,
  WriteUnavailable: 17,
} as const;

/** A known opcode number. */
export type OpcodeNumber = (typeof Opcode)[keyof typeof Opcode];
/** A known opcode name. */
export type OpcodeName = keyof typeof Opcode;

/** Who sends a frame: host → client or client → host. */
export type FrameDirection = 'host-to-client' | 'client-to-host';
/** How a payload is encoded. */
export type PayloadKind = 'text' | 'json' | 'empty';
/** Capabilities that gate an opcode. */
export type GatingCapability = 'ackOutput' | 'desktopViewportClaims' | 'outputPause' | 'writeUnavailable';

/** Static facts about one opcode. */
export interface OpcodeInfo {
  readonly name: OpcodeName;
  readonly direction: FrameDirection;
  readonly payload: PayloadKind;
  readonly gate: GatingCapability | null;
  /** The `@orca/wire` version that introduced it. */
  readonly since: string;
}

const H = 'host-to-client';
const C = 'client-to-host';

/** Name, direction, payload kind, gate and `since` per opcode number. */
export const OPCODE_INFO: Readonly<Record<OpcodeNumber, OpcodeInfo>> = {
  1: { name: 'Output', direction: H, payload: 'text', gate: null, since: '0.1.0' },
  2: { name: 'SnapshotStart', direction: H, payload: 'json', gate: null, since: '0.1.0' },
  3: { name: 'SnapshotChunk', direction: H, payload: 'text', gate: null, since: '0.1.0' },
  4: { name: 'SnapshotEnd', direction: H, payload: 'empty', gate: null, since: '0.1.0' },
  5: { name: 'Resized', direction: H, payload: 'json', gate: null, since: '0.1.0' },
  6: { name: 'Error', direction: H, payload: 'text', gate: null, since: '0.1.0' },
  7: { name: 'Input', direction: C, payload: 'text', gate: null, since: '0.1.0' },
  8: { name: 'Resize', direction: C, payload: 'json', gate: null, since: '0.1.0' },
  9: { name: 'Subscribe', direction: C, payload: 'json', gate: null, since: '0.1.0' },
  10: { name: 'Unsubscribe', direction: C, payload: 'empty', gate: null, since: '0.1.0' },
  11: { name: 'SnapshotRequest', direction: C, payload: 'json', gate: null, since: '0.1.0' },
  12: { name: 'Metadata', direction: H, payload: 'json', gate: null, since: '0.1.0' },
  13: { name: 'Ack', direction: C, payload: 'json', gate: 'ackOutput', since: '0.1.0' },
  14: { name: 'ClaimViewport', direction: C, payload: 'json', gate: 'desktopViewportClaims', since: '0.1.0' },
  15: { name: 'OutputSpan', direction: H, payload: 'json', gate: null, since: '0.1.0' },
  16: { name: 'SetOutputPaused', direction: C, payload: 'json', gate: 'outputPause', since: '0.2.0' },
  17: { name: 'WriteUnavailable', direction: H, payload: 'empty', gate: 'writeUnavailable', since: '0.2.0' },
};

/** Every opcode number this build knows. */
export const KNOWN_OPCODES: ReadonlySet<number> = new Set(Object.keys(OPCODE_INFO).map(Number));

/** The info of a known opcode, or undefined. */
export function opcodeInfo(opcode: number): OpcodeInfo | undefined {
  return KNOWN_OPCODES.has(opcode) ? OPCODE_INFO[opcode as OpcodeNumber] : undefined;
}
