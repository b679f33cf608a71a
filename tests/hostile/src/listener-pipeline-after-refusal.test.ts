import { afterEach, describe, expect, it } from 'vitest';
import {
  exchange,
  type ListenerTarget,
  markedBody,
  rawHookPost,
  startListenerTarget,
  statusLines,
  storedMarkers,
} from './listener-attack-host.ts';

let target: ListenerTarget | undefined;
afterEach(async () => {
  await target?.host.stop();
  target = undefined;
});

describe('attack: pipeline a request behind a refused one on the same socket', () => {
  it('after a 403, a 404 or a content-type drop, the pipelined request is never stored; a plain one is', async () => {
    target = await startListenerTarget();
    const { port, token, paneKey } = target;
    const refused: [string, string][] = [
      ['403', rawHookPost({ token: 'wrong-token', body: markedBody(paneKey, 'refused-403') })],
      ['404', rawHookPost({ token, source: 'nope', body: markedBody(paneKey, 'refused-404') })],
      ['text/plain', rawHookPost({ token, contentType: 'text/plain', body: markedBody(paneKey, 'dropped-ct') })],
    ];
    const replies: Record<string, string[]> = {};
    for (const [name, first] of refused) {
      const smuggled = rawHookPost({ token, body: markedBody(paneKey, `smuggled-after-${name}`) });
      replies[name] = statusLines((await exchange(port, first + smuggled)).reply);
    }
    const control = rawHookPost({ token, body: markedBody(paneKey, 'control'), extraHeaders: 'Connection: close\r\n' });
    replies.control = statusLines((await exchange(port, control)).reply);
    const markers = await storedMarkers(target);
    target = undefined;
    console.log(`replies per socket: ${JSON.stringify(replies)}; stored markers: ${JSON.stringify(markers)}`);
    expect(replies).toEqual({
      '403': ['HTTP/1.1 403'],
      '404': ['HTTP/1.1 404'],
      'text/plain': ['HTTP/1.1 204'],
      control: ['HTTP/1.1 204'],
    });
    expect(markers).toEqual(['control']);
  }, 120_000);
});
