// The control: the same calls, spelt and read as the contract says, typecheck.
import {
  type BrowserContract,
  implement,
  type RawSend,
  RUNTIME_CONTRACT,
  typedCaller,
} from '../../src/contract/index.ts';

declare const send: RawSend;
export const list = implement(RUNTIME_CONTRACT, 'terminal.list', () => ({ panes: [] }));
export async function shown(): Promise<string> {
  const pane = await typedCaller(send).call('terminal.show', { handle: 'p1' });
  return pane.cwd;
}
export const listed = typedCaller<BrowserContract>(send).call('terminal.list');
