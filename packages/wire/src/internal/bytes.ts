import { utf8 } from './utf8.ts';

/**
 * An owned byte array the caller fills completely. On Node it skips the zero-fill (measured 4–5×
 * faster for 48 KiB frames); it is never a view into a shared pool.
 */
export function allocFilledByCaller(length: number): Uint8Array {
  return utf8.allocFilledByCaller(length);
}
