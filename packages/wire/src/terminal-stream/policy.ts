/**
 * What a receiver does with a frame that is undecodable or not allowed where it arrived:
 * `'drop'` counts it and keeps the connection (terminal host, mobile client, guest relay);
 * `'close'` fails the connection with the reason (desktop client, host-side relay channel).
 */
export type ReceivePolicy = 'drop' | 'close';

/** Both policies, named. */
export const RECEIVE_POLICIES = ['drop', 'close'] as const satisfies readonly ReceivePolicy[];
