import type { AnyMethodContract, Contract, ContractEvent, ContractParams, ContractResult } from './define.ts';
import type { RuntimeContract } from './methods.ts';

/** The names of a contract's streaming methods (what `stream` takes). */
export type StreamingMethodOf<C extends Contract> = {
  [M in keyof C & string]: C[M]['streaming'] extends true ? M : never;
}[keyof C & string];

/** The params argument of a call: optional when the method accepts none. */
export type ParamsArg<C extends AnyMethodContract> =
  undefined extends ContractParams<C> ? [params?: ContractParams<C>] : [params: ContractParams<C>];

/**
 * Calls methods of contract `C` by name: a misspelt name, wrong params or a result read as
 * something it is not fail the typecheck.
 */
export interface TypedCaller<C extends Contract = RuntimeContract> {
  /** A call answered by one result (a streaming method's events are dropped). */
  call<M extends keyof C & string>(method: M, ...params: ParamsArg<C[M]>): Promise<ContractResult<C[M]>>;
  /** A streaming call: `onEvent` gets each event; resolves with the final result. */
  stream<M extends StreamingMethodOf<C>>(
    method: M,
    params: ContractParams<C[M]>,
    onEvent: (event: ContractEvent<C[M]>) => void,
  ): Promise<ContractResult<C[M]>>;
}

/** The untyped send of a connection: method, params, an event callback for streams. */
export type RawSend = (method: string, params: unknown, onEvent?: (event: unknown) => void) => Promise<unknown>;

/**
 * Types a connection's raw `send` with the contract (no checks at run time: the host validates).
 *
 * @example
 * const caller = typedCaller(send);
 * const { panes } = await caller.call('terminal.list');
 */
export function typedCaller<C extends Contract = RuntimeContract>(send: RawSend): TypedCaller<C> {
  return {
    call: (method, ...params) => send(method, params[0]) as never,
    stream: (method, params, onEvent) => send(method, params, onEvent as (event: unknown) => void) as never,
  };
}
