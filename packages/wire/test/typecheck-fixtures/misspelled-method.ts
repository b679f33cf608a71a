// A client calls a method the contract does not have: `pnpm typecheck` must refuse it.
import { type RawSend, typedCaller } from '../../src/contract/index.ts';

declare const send: RawSend;
export const listed = typedCaller(send).call('terminal.lsit');
