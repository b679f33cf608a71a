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

describe("attack: pad a live pane's key with whitespace", () => {
  it('a padded key (JSON, form or raw-json-v1 meta) is stored nowhere; the exact key is', async () => {
    target = await startListenerTarget();
    const { port, token, paneKey } = target;
    const padded: [string, string][] = [
      ['leading-space', ` ${paneKey}`],
      ['trailing-space', `${paneKey} `],
      ['tab', `\t${paneKey}`],
      ['newline', `${paneKey}\n`],
      ['nbsp', `\u00a0${paneKey}`],
    ];
    const codes: string[] = [];
    const post = async (body: string, contentType: string, extra = '') => {
      const bytes = rawHookPost({ token, contentType, body, extraHeaders: `${extra}Connection: close\r\n` });
      codes.push(...statusLines((await exchange(port, bytes)).reply));
    };
    for (const [name, key] of padded) {
      await post(markedBody(key, `json-${name}`), 'application/json');
      const payload = JSON.stringify({ hook_event_name: 'Notification', marker: `form-${name}` });
      await post(new URLSearchParams({ paneKey: key, payload }).toString(), 'application/x-www-form-urlencoded');
      const meta = Buffer.from([key, '', '', '', '', ''].join('\u001f')).toString('base64');
      await post(
        JSON.stringify({ hook_event_name: 'Notification', marker: `raw-${name}` }),
        'application/json',
        `X-Orca-Agent-Hook-Meta: ${meta}\r\nX-Orca-Agent-Hook-Meta-Encoding: base64\r\n`,
      );
    }
    await post(markedBody(paneKey, 'exact'), 'application/json');
    const markers = await storedMarkers(target);
    target = undefined;
    console.log(
      `${codes.length} posts answered ${JSON.stringify([...new Set(codes)])}; stored markers: ${JSON.stringify(markers)}`,
    );
    expect(codes).toEqual(Array(padded.length * 3 + 1).fill('HTTP/1.1 204'));
    expect(markers).toEqual(['exact']);
  }, 120_000);
});
