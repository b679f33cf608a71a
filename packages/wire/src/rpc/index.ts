/**
 * `@orca/wire/rpc`: runtime RPC envelopes, error codes and a validating dispatcher.
 *
 * @example
 * import { createDispatcher, defineMethod } from '@orca/wire/rpc';
 * import { z } from 'zod';
 * const dispatcher = createDispatcher({
 *   runtimeId: 'r1',
 *   methods: [defineMethod({ name: 'terminal.show', params: z.object({ handle: z.string() }), handler: ({ handle }) => ({ handle }) })],
 * });
 * const envelope = await dispatcher.dispatch('{"id":"1","method":"terminal.show","params":{"handle":"t1"}}');
 */

export { WIRE_ERROR_CODES, WireError, type WireErrorCode } from '../errors.ts';
export { RPC_LIMITS } from '../limits.ts';
export { createRpcCallRouter, type RpcCallRouter } from './call-router.ts';
export { DEFAULT_PASS_THROUGH_CODES, RPC_CODE_PATTERN, RPC_ERROR_CODES, type RpcErrorCode } from './codes.ts';
export {
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
  type DispatchOptions,
  defineMethod,
  type MethodContext,
  type MethodDefinition,
} from './dispatcher.ts';
export {
  failure,
  KEEPALIVE,
  parseRequest,
  parseResponse,
  type RpcFailure,
  type RpcRequest,
  type RpcResponse,
  type RpcSuccess,
  streamEvent,
  success,
} from './envelope.ts';
export { InvalidArgumentError, RpcError, type RpcErrorOptions } from './errors.ts';
