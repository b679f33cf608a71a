/**
 * Both receive policies, named. What a receiver (terminal host or client, relay channel) does with
 * a frame that is undecodable or not allowed where it arrived:
 * `'drop'` counts it and keeps the connection (terminal host, mobile client, guest relay);
 * `'close'` fails the connection with the reason (desktop client, host-side relay channel).
 */
export const RECEIVE_POLICIES = ['drop', 'close'] as const;

/** One of {@link RECEIVE_POLICIES}. */
export type ReceivePolicy = (typeof RECEIVE_POLICIES)[number];
