// The board calls a method the contract keeps off browsers (`guest.add` runs ssh with given arguments).
import { type BrowserContract, type RawSend, typedCaller } from '../../src/contract/index.ts';

declare const send: RawSend;
export const added = typedCaller<BrowserContract>(send).call('guest.add', { kind: 'ssh', name: 'box' });
