/**
 * `@orca/wire/contract`: the runtime methods as one typed table (browser-safe: zod and types).
 * The host serves from it with `implement`, clients call through `TypedCaller`, and each method
 * says whether a paired browser may call it.
 *
 * @example
 * import { RUNTIME_CONTRACT, implement, typedCaller } from '@orca/wire/contract';
 * const list = implement(RUNTIME_CONTRACT, 'terminal.list', () => ({ panes: [] }));
 * const { panes } = await typedCaller(send).call('terminal.list');
 */

export { type RawSend, type StreamingMethodOf, type TypedCaller, typedCaller } from './caller.ts';
export {
  type AnyMethodContract,
  type BrowserPart,
  type Contract,
  type ContractEvent,
  type ContractHandler,
  type ContractParams,
  type ContractParsed,
  type ContractResult,
  contractMethod,
  implement,
  type MethodContract,
  type MethodSpec,
  type TypedMethodContext,
} from './define.ts';
export { RUNTIME_METHOD_LIMITS } from './limits.ts';
export {
  BROWSER_METHODS,
  type BrowserContract,
  RUNTIME_CONTRACT,
  type RuntimeContract,
  type RuntimeMethodName,
} from './methods.ts';
export type * from './views.ts';
