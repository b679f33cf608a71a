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

describe('attack: post a JSON body under a content type the spec does not parse', () => {
  it('text/plain, no content type and lookalikes are answered 204 and stored nowhere; JSON and form are stored', async () => {
    target = await startListenerTarget();
    const { port, token, paneKey } = target;
    const refused: [string, string | null][] = [
      ['text-plain', 'text/plain'],
      ['none', null],
      ['octet-stream', 'application/octet-stream'],
      ['json-in-parameter', 'text/plain; profile=application/json'],
      ['jsonp', 'application/jsonp'],
    ];
    const codes: Record<string, string[]> = {};
    const send = async (name: string, contentType: string | null, body: string) => {
      const bytes = rawHookPost({ token, contentType, body, extraHeaders: 'Connection: close\r\n' });
      codes[name] = statusLines((await exchange(port, bytes)).reply);
    };
    for (const [name, ct] of refused) await send(name, ct, markedBody(paneKey, name));
    await send('json', 'application/json; charset=utf-8', markedBody(paneKey, 'json'));
    const form = new URLSearchParams({
      paneKey,
      payload: JSON.stringify({ hook_event_name: 'Notification', marker: 'form' }),
    }).toString();
    await send('form', 'application/x-www-form-urlencoded', form);
    const markers = await storedMarkers(target);
    target = undefined;
    console.log(`status per content type: ${JSON.stringify(codes)}; stored markers: ${JSON.stringify(markers)}`);
    expect(new Set(Object.values(codes).flat())).toEqual(new Set(['HTTP/1.1 204']));
    expect(markers).toEqual(['json', 'form']);
  }, 120_000);
});
