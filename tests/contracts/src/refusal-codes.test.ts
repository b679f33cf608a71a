import { HostError, REFUSAL_CODES } from '@orca/host';
import { createDispatcher, defineMethod } from '@orca/wire/rpc';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('every host refusal code passes through the RPC dispatcher unchanged', () => {
  const dispatcher = createDispatcher({
    runtimeId: 'contract',
    passThroughCodes: REFUSAL_CODES,
    methods: [
      defineMethod({
        name: 'refuse',
        params: z.object({ code: z.string() }),
        handler: ({ code }: { code: string }) => {
          throw new HostError(code as (typeof REFUSAL_CODES)[number], `refused: ${code}`);
        },
      }),
    ],
  });

  it.each([...REFUSAL_CODES])('%s', async (code) => {
    const response = await dispatcher.dispatch(JSON.stringify({ id: '1', method: 'refuse', params: { code } }));
    expect(response).toMatchObject({ id: '1', ok: false, error: { code, message: `refused: ${code}` } });
  });

  it('a host failure that is not a refusal does not leak its code', async () => {
    const failing = createDispatcher({
      runtimeId: 'contract',
      passThroughCodes: REFUSAL_CODES,
      methods: [
        defineMethod({
          name: 'fail',
          params: z.object({}),
          handler: () => {
            throw new HostError('ORCA_HOST_STORE', 'disk full');
          },
        }),
      ],
    });
    const response = await failing.dispatch(JSON.stringify({ id: '2', method: 'fail', params: {} }));
    expect(response).toMatchObject({ id: '2', ok: false });
    expect(JSON.stringify(response)).not.toContain('ORCA_HOST_STORE');
  });
});
