import type { z } from 'zod';
import { defineMethod, type MethodContext, type MethodDefinition } from '../rpc/dispatcher.ts';

/** Who may call a method: `browser: true` methods are served to paired browsers too. */
export interface MethodSpec<P extends z.ZodType | null, S extends boolean = boolean, B extends boolean = boolean> {
  /** The params schema (null: the method takes none). */
  readonly params: P;
  /** A streaming method: events, then one final result. */
  readonly streaming: S;
  /** Served to the board (`orca start --web`) too; false: the runtime socket (the data dir's owner) only. */
  readonly browser: B;
}

/**
 * One method of the contract: its params schema and flags at run time; its result `R` and stream
 * event `E` as types only (phantom fields, never set).
 */
export interface MethodContract<
  P extends z.ZodType | null,
  R,
  E,
  S extends boolean = boolean,
  B extends boolean = boolean,
> extends MethodSpec<P, S, B> {
  readonly __result?: R;
  readonly __event?: E;
}

/**
 * Declares a method whose result is `R` (and stream events `E`); the spec is inferred.
 *
 * @example
 * const show = contractMethod<PaneView>()({ params: z.object({ handle }), streaming: false, browser: true });
 */
export function contractMethod<R, E = never>() {
  return <P extends z.ZodType | null, S extends boolean, B extends boolean>(
    spec: MethodSpec<P, S, B>,
  ): MethodContract<P, R, E, S, B> => spec;
}

// biome-ignore lint/suspicious/noExplicitAny: a contract maps names to methods of any params, result and event.
export type AnyMethodContract = MethodContract<any, any, any, boolean, boolean>;

/** A contract: method name → its declaration. */
export type Contract = Readonly<Record<string, AnyMethodContract>>;

/** The part of contract `C` a paired browser may call (`browser: true`). */
export type BrowserPart<C extends Contract> = { [M in keyof C as C[M]['browser'] extends true ? M : never]: C[M] };

/** The params a caller sends (`undefined` for a method that takes none). */
export type ContractParams<C extends AnyMethodContract> = C['params'] extends z.ZodType
  ? z.input<C['params']>
  : undefined;

/** The params a handler receives, parsed. */
export type ContractParsed<C extends AnyMethodContract> = C['params'] extends z.ZodType
  ? z.output<C['params']>
  : undefined;

/** What a method answers (a streaming method: its final result). */
export type ContractResult<C extends AnyMethodContract> = Exclude<C['__result'], undefined>;

/** One event of a streaming method. */
export type ContractEvent<C extends AnyMethodContract> = Exclude<C['__event'], undefined>;

/** What a handler of a streaming method gets: `emit` typed with the method's event. */
export interface TypedMethodContext<E> extends Omit<MethodContext, 'emit'> {
  emit(event: E): void;
}

/** The handler of method `C`: parsed params in, its result (or a promise of it) out. */
export type ContractHandler<C extends AnyMethodContract> = (
  params: ContractParsed<C>,
  context: TypedMethodContext<ContractEvent<C>>,
) => ContractResult<C> | Promise<ContractResult<C>>;

/**
 * Serves method `name` of `contract` with `handler`: its schema and streaming flag come from the
 * contract, and the handler must return the contract's result type (a drifted result fails the
 * typecheck).
 *
 * @example
 * implement(RUNTIME_CONTRACT, 'terminal.list', () => ({ panes: host.listPanes() }));
 */
export function implement<C extends Contract, M extends keyof C & string>(
  contract: C,
  name: M,
  handler: ContractHandler<C[M]>,
): MethodDefinition<ContractParsed<C[M]>> {
  const spec = contract[name] as AnyMethodContract;
  return defineMethod({
    name,
    params: spec.params,
    streaming: spec.streaming,
    handler: handler as MethodDefinition<ContractParsed<C[M]>>['handler'],
  });
}
