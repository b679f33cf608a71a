import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFY_CONFIG, notifyConfigReader, parseNotifyConfig } from './notify-config.ts';

const good = `{
  // tell me on my phone
  "rules": [
    { "on": "waiting", "sinks": ["phone"], "escalate": { "afterMinutes": 10, "sinks": ["team"] } },
    { "on": "done", "sinks": ["phone"], "minTurnSeconds": 120 },
  ],
  "sinks": {
    "phone": { "type": "webhook", "url": "https://ntfy.sh/my-topic", "format": "ntfy" },
    "team": { "type": "webhook", "url": "http://127.0.0.1:9000/slack" },
  },
}`;

describe('notify.json', () => {
  it('reads JSON with comments and trailing commas', () => {
    const config = parseNotifyConfig(good, 'notify.json');
    expect(config.rules[0]?.escalate?.sinks).toEqual(['team']);
    expect(config.sinks.team).toEqual({ type: 'webhook', url: 'http://127.0.0.1:9000/slack', format: 'json' });
  });

  it('names the line of what is wrong', () => {
    expect(() =>
      parseNotifyConfig(good.replace('"webhook", "url": "https', '"webhook" "url": "https'), 'n.json'),
    ).toThrow(/^n\.json:8: not valid JSON/);
    expect(() => parseNotifyConfig(good.replace('"on": "done"', '"on": "finished"'), 'n.json')).toThrow(
      /^n\.json:5: rules\.1\.on: /,
    );
    expect(() => parseNotifyConfig(good.replace('"sinks": ["team"]', '"sinks": ["pager"]'), 'n.json')).toThrow(
      /^n\.json:4: rules\.0\.escalate: no sink named "pager"/,
    );
    expect(() =>
      parseNotifyConfig(good.replace('"https://ntfy.sh/my-topic"', '"file:///etc/passwd"'), 'n.json'),
    ).toThrow(/^n\.json:8: sinks\.phone\.url/);
    expect(() =>
      parseNotifyConfig(
        '{"rules":[{"on":"error","sinks":["a"],"minTurnSeconds":3}],"sinks":{"a":{"type":"web"}}}',
        'x',
      ),
    ).toThrow(/only a "done" rule has it/);
  });

  it('never throws anything but its own error on junk', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          parseNotifyConfig(text, 'j');
        } catch (error) {
          expect((error as { code?: string }).code).toBe('ORCA_HOST_NOTIFY_CONFIG');
        }
      }),
    );
  });

  it('is read again when it changes; a broken edit keeps the last good rules and is reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orca-notify-config-'));
    const file = join(dir, 'notify.json');
    const errors: string[] = [];
    let now = 0;
    const read = notifyConfigReader(
      file,
      (e) => errors.push(e.message),
      () => now,
    );
    expect(read()).toBe(DEFAULT_NOTIFY_CONFIG);
    writeFileSync(file, good);
    // Looked at again only once a second has passed.
    expect(read()).toBe(DEFAULT_NOTIFY_CONFIG);
    now += 1_000;
    expect(read().sinks.phone?.type).toBe('webhook');
    writeFileSync(file, `${good}\n{ broken`);
    now += 1_000;
    expect(read().sinks.phone?.type).toBe('webhook');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/notify\.json:\d+:/);
  });
});
