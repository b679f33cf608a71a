import { describe, expect, it } from 'vitest';
import { HostError, HostRefusal, isRefusal, refusal } from './errors.ts';
import { RpcCallError } from './rpc/client.ts';

describe('host errors', () => {
  it('a HostError carries its code, cause and context in one options object', () => {
    const cause = new Error('EACCES');
    const e = new HostError('ORCA_HOST_DATA_DIR', 'cannot create /x; pass --data-dir', {
      cause,
      context: { dir: '/x' },
    });
    expect([e.name, e.code, e.message, e.cause, e.context]).toEqual([
      'HostError',
      'ORCA_HOST_DATA_DIR',
      'cannot create /x; pass --data-dir',
      cause,
      { dir: '/x' },
    ]);
    expect(isRefusal(e)).toBe(false);
  });

  it('a refusal is a HostRefusal, not a HostError, and is told apart by isRefusal', () => {
    const r = refusal('terminal_handle_stale', 'no live pane p', { handle: 'p' });
    expect(r).toBeInstanceOf(HostRefusal);
    expect(r).not.toBeInstanceOf(HostError);
    expect([r.code, r.context]).toEqual(['terminal_handle_stale', { handle: 'p' }]);
    expect(isRefusal(r)).toBe(true);
  });

  it('an RPC failure received with a refusal code counts as a refusal; runtime_error does not', () => {
    const refused = new RpcCallError({
      id: '1',
      ok: false,
      error: { code: 'agent_prompt_blocked', message: 'menu' },
      _meta: { runtimeId: 'r' },
    } as never);
    const failed = new RpcCallError({
      id: '2',
      ok: false,
      error: { code: 'runtime_error', message: 'disk full' },
      _meta: { runtimeId: 'r' },
    } as never);
    expect([refused.code, isRefusal(refused), failed.code, isRefusal(failed)]).toEqual([
      'agent_prompt_blocked',
      true,
      'runtime_error',
      false,
    ]);
  });
});
