// A host handler returns what the contract no longer says `terminal.list` answers.
import { implement, RUNTIME_CONTRACT } from '../../src/contract/index.ts';

export const list = implement(RUNTIME_CONTRACT, 'terminal.list', () => ({ panes: [{ handle: 'p1', status: 'busy' }] }));
