/**
 * An owned byte array the caller fills completely. On Node it skips the zero-fill (measured 4–5×
 * faster for 48 KiB frames); it is never a view into a shared pool.
 */
export function allocFilledByCaller(length: number): Uint8Array {
  if (typeof Buffer === 'function') {
    const b = Buffer.allocUnsafeSlow(length);
    return new Uint8Array(b.buffer, b.byteOffset, length);
  }
  return new Uint8Array(length);
}
