import { z } from 'zod';
import { RELAY_PROTOCOL_VERSION } from '../compat/versions.ts';
import { encodeRelayFrame, RelayFrameType } from './frame.ts';

const HandshakeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('orca-relay-handshake'), version: z.string().min(1) }),
  z.object({ type: z.literal('orca-relay-handshake-ok') }),
  z.object({ type: z.literal('orca-relay-handshake-mismatch'), expected: z.string(), got: z.string() }),
]);

/** A decoded handshake payload. */
export type RelayHandshake = z.infer<typeof HandshakeSchema>;

/**
 * Encodes a Handshake frame (type 2, seq 0, ack 0). Relay protocol 0.1.0 never sends one (the
 * sentinel carries the version); this exists so a later protocol can, and decoders are ready.
 *
 * @example
 * const bytes = encodeHandshake({ type: 'orca-relay-handshake', version: '0.1.0' });
 */
export function encodeHandshake(
  message: RelayHandshake = { type: 'orca-relay-handshake', version: RELAY_PROTOCOL_VERSION },
): Uint8Array {
  return encodeRelayFrame({
    type: RelayFrameType.Handshake,
    seq: 0,
    ack: 0,
    payload: new TextEncoder().encode(JSON.stringify(message)),
  });
}

/** Parses a Handshake payload; never throws. */
export function parseHandshake(
  payload: Uint8Array,
): { ok: true; value: RelayHandshake } | { ok: false; reason: 'invalid-json' | 'invalid-shape' } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    return { ok: false, reason: 'invalid-json' };
  }
  const parsed = HandshakeSchema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: 'invalid-shape' };
}
