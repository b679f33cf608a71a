import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type HostileHost, runOrca, startHostileHost, tempRoot } from './real-host.ts';

let host: HostileHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

/** Opens a raw WebSocket and sends status.get: the reply text, or how the connection failed. */
function tryStatus(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(`http ${res.statusCode}`);
      ws.terminate();
    });
    ws.on('error', (e) => resolve(`error ${e.message}`));
    ws.on('open', () => ws.send(JSON.stringify({ id: 'x1', method: 'status.get' })));
    ws.on('message', (data) => {
      const reply = JSON.parse(String(data)) as { id?: string; ok?: boolean };
      if (reply.id !== 'x1') return;
      resolve(reply.ok ? 'status ok' : 'status failed');
      ws.close();
    });
  });
}

describe('attack: the TCP RPC listener without, or with a wrong, bearer token', () => {
  it('`start --listen` names a 0600 token file; no token or a wrong one gets nothing, the right one (file or env) works', async () => {
    const dataDir = join(tempRoot(), 'data');
    host = await startHostileHost(dataDir, ['--listen', '127.0.0.1:0']);
    const tcp = host.ready.tcp as { url: string; port: number; tokenFile: string };
    expect(tcp.url).toBe(`ws://127.0.0.1:${tcp.port}`);
    expect(tcp.tokenFile).toBe(join(dataDir, 'runtime-token'));
    expect(statSync(tcp.tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(tcp.tokenFile, 'utf8').trim();
    expect(token).toMatch(/^[0-9a-f]{48}$/);

    expect(await tryStatus(tcp.url, {})).toBe('http 401');
    const lastFlipped = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    expect(await tryStatus(tcp.url, { authorization: `Bearer ${lastFlipped}` })).toBe('http 401');
    expect(await tryStatus(tcp.url, { authorization: `Bearer ${token}0` })).toBe('http 401');
    expect(await tryStatus(tcp.url, { authorization: `Bearer ${token.slice(0, -1)}` })).toBe('http 401');
    // Why: trailing spaces are HTTP whitespace the parser strips; an inner one is part of the value.
    expect(await tryStatus(tcp.url, { authorization: `Bearer  ${token}` })).toBe('http 401');
    expect(await tryStatus(tcp.url, { authorization: token })).toBe('http 401');
    expect(await tryStatus(tcp.url, { authorization: `Bearer ${token}` })).toBe('status ok');

    // the CLI, with no data dir of its own: the token from a file, then from the env
    const elsewhere = join(tempRoot(), 'none');
    const fromFile = await runOrca([
      '--json',
      '--data-dir',
      elsewhere,
      '--remote',
      tcp.url,
      '--token-file',
      tcp.tokenFile,
      'ls',
    ]);
    expect({ code: fromFile.code, out: JSON.parse(fromFile.stdout) }).toEqual({ code: 0, out: { panes: [] } });
    const fromEnv = await runOrca(['--json', '--data-dir', elsewhere, '--remote', tcp.url, 'ls'], {
      env: { ORCA_RUNTIME_TOKEN: token },
    });
    expect(fromEnv.code).toBe(0);
    const status = await runOrca([
      '--json',
      '--data-dir',
      elsewhere,
      '--remote',
      tcp.url,
      '--token-file',
      tcp.tokenFile,
      'status',
    ]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ panes: [] });
    const wrong = await runOrca(['--data-dir', elsewhere, '--remote', tcp.url, 'ls'], {
      env: { ORCA_RUNTIME_TOKEN: 'f'.repeat(48) },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toMatch(/refused the token/);
    const none = await runOrca(['--data-dir', elsewhere, '--remote', tcp.url, 'ls'], {
      env: { ORCA_RUNTIME_TOKEN: '' },
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--token-file|ORCA_RUNTIME_TOKEN/);

    // the token is never printed or logged
    expect(await host.stop()).toBe(0);
    expect(existsSync(tcp.tokenFile)).toBe(false);
    const logged = readFileSync(join(dataDir, 'logs', 'host.log'), 'utf8') + host.stderr();
    expect(logged.includes(token)).toBe(false);
    expect(JSON.stringify(host.ready).includes(token)).toBe(false);
    host = undefined;
  }, 120_000);
});
