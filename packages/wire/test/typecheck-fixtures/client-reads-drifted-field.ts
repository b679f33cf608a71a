// A client reads a field the contract's result does not have (a board that re-declared `PaneView`).
import { type RawSend, typedCaller } from '../../src/contract/index.ts';

declare const send: RawSend;
export async function shown(): Promise<string> {
  const pane = await typedCaller(send).call('terminal.show', { handle: 'p1' });
  return pane.workingDirectory;
}
