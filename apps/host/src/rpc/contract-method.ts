import {
  type ContractHandler,
  implement,
  RUNTIME_CONTRACT,
  type RuntimeContract,
  type RuntimeMethodName,
} from '@orca/wire/contract';

/**
 * Serves runtime method `name` from `@orca/wire/contract`: its params schema and streaming flag
 * come from the contract, and `handler` must return the contract's result type.
 *
 * @example
 * runtimeMethod('terminal.list', () => ({ panes: host.listPanes() }));
 */
export function runtimeMethod<M extends RuntimeMethodName>(name: M, handler: ContractHandler<RuntimeContract[M]>) {
  return implement(RUNTIME_CONTRACT, name, handler);
}
