import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { runOrca, type StartedHost, startOrca } from './cli-process.ts';

describe('orca status explain and orca notify (the real CLI against a real host)', () => {
  let host: StartedHost | undefined;
  const received: unknown[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  afterAll(async () => {
    await host?.stop();
    server.close();
  });

  it('an error exit reaches the webhook and the command sink; explain names the rule and replays; test and log report', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const root = mkdtempSync(join(tmpdir(), 'orca-notify-cli-'));
    const dataDir = join(root, 'data');
    const script = join(root, 'got.jsonl');
    writeFileSync(script, '');
    host = await startOrca(dataDir);
    writeFileSync(
      join(dataDir, 'notify.json'),
      JSON.stringify({
        rules: [{ on: 'error', sinks: ['hook', 'script'] }],
        sinks: {
          hook: { type: 'webhook', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` },
          script: { type: 'command', command: `cat >> ${script}; echo >> ${script}` },
        },
      }),
    );
    const run = await runOrca([
      '--data-dir',
      dataDir,
      'run',
      '--name',
      'crasher',
      '--',
      '/bin/sh',
      '-c',
      'sleep 0.5; exit 4',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const handle = run.stdout.trim();
    await until('the webhook got the error', () => received.length === 1);
    expect(received[0]).toMatchObject({
      kind: 'error',
      handle,
      name: 'crasher',
      text: expect.stringMatching(/exit 4/),
    });
    await until('the command got it', () => readFileSync(script, 'utf8').includes('"kind":"error"'));

    const explain = await runOrca(['--data-dir', dataDir, 'status', 'explain', handle, '--replay']);
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toMatch(/→ — {2}rule exited \(process\)/);
    expect(explain.stdout).toMatch(/replayed: — \(same verdict\)/);
    const json = await runOrca(['--json', '--data-dir', dataDir, 'status', 'explain', handle]);
    const parsed = JSON.parse(json.stdout) as { transitions: { explanation: { rule: string } }[] };
    expect(parsed.transitions.at(-1)?.explanation.rule).toBe('exited');
    const unknown = await runOrca(['--data-dir', dataDir, 'status', 'explain', 'pane-nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/terminal_handle_stale/);

    const test = await runOrca(['--data-dir', dataDir, 'notify', 'test']);
    expect(test.code, test.stderr).toBe(0);
    expect(test.stdout.trim().split('\n').sort()).toEqual(['hook: delivered', 'script: delivered']);
    const log = await runOrca(['--data-dir', dataDir, 'notify', 'log']);
    expect(log.code).toBe(0);
    expect(log.stdout).toMatch(/ hook {2}error {2}pane-[0-9a-f]+ {2}#1 delivered 204 \d+ ms/);
    expect(log.stdout).toMatch(/ script {2}test {2}— {2}#1 delivered/);
    // A sink that cannot deliver makes `notify test` exit 1, saying why.
    writeFileSync(
      join(dataDir, 'notify.json'),
      JSON.stringify({ rules: [], sinks: { dead: { type: 'webhook', url: 'http://127.0.0.1:1/' } } }),
    );
    const dead = await runOrca(['--data-dir', dataDir, 'notify', 'test']);
    expect(dead.code).toBe(1);
    expect(dead.stdout).toMatch(/^dead: failed \(/);
  }, 120_000);
});
