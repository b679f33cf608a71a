/**
 * The one place `@orca/wire` touches Node's `Buffer`: a fast path for UTF-8 and uninitialised
 * allocation, found at run time on `globalThis` and typed structurally here, so this module (and
 * everything that imports it) has no `node:` import and no `@types/node` dependency and runs
 * unchanged in a browser, where {@link nodeBuffer} is `null`.
 */

/** The part of Node's `Buffer` (instances are `Uint8Array`s) that the fast paths use. */
export interface NodeBufferInstance extends Uint8Array {
  write(text: string, offset: number, length: number, encoding: 'utf8'): number;
  toString(encoding?: 'utf8'): string;
}

/** The part of Node's `Buffer` constructor that the fast paths use. */
export interface NodeBufferStatics {
  byteLength(text: string, encoding: 'utf8'): number;
  allocUnsafeSlow(size: number): NodeBufferInstance;
  from(text: string, encoding: 'utf8'): NodeBufferInstance;
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): NodeBufferInstance;
}

function findNodeBuffer(): NodeBufferStatics | null {
  // Why: read through globalThis so bundlers for the browser see no free `Buffer` to polyfill.
  const candidate = (globalThis as { Buffer?: unknown }).Buffer;
  return typeof candidate === 'function' ? (candidate as unknown as NodeBufferStatics) : null;
}

/** Node's `Buffer` when running on Node (or a runtime that provides it), else `null`. */
export const nodeBuffer: NodeBufferStatics | null = findNodeBuffer();
