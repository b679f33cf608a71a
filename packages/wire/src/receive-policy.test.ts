import { describe, expect, it } from 'vitest';
import * as relayFrames from './relay-frames/index.ts';
import * as terminalStream from './terminal-stream/index.ts';

describe('ReceivePolicy', () => {
  it('is one definition, the same object from every subpath that takes a policy', () => {
    expect(terminalStream.RECEIVE_POLICIES).toEqual(['drop', 'close']);
    expect(relayFrames.RECEIVE_POLICIES).toBe(terminalStream.RECEIVE_POLICIES);
  });
});
