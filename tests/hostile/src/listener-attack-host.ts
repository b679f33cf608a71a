import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { openStore } from '@orca/host';
import { type HostileHost, runOrca, startHostileHost, tempRoot } from './real-host.ts';

/** A real host with one live pane, and the hook endpoint it published in its data dir. */
export interface ListenerTarget {
  readonly host: HostileHost;
  readonly dataDir: string;
  readonly paneKey: string;
  readonly port: number;
  readonly token: string;
}

/** Reads the hook endpoint (port, token) the host wrote to `agent-hooks/endpoint.env`. */
export function hookEndpoint(dataDir: string): { port: number; token: string } {
  const text = readFileSync(join(dataDir, 'agent-hooks', 'endpoint.env'), 'utf8');
  const value = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(text)?.[1] ?? '';
  return { port: Number(value('ORCA_AGENT_HOOK_PORT')), token: value('ORCA_AGENT_HOOK_TOKEN') };
}

/** Starts `orca start` on a fresh data dir and creates one long-lived pane (`orca run -- sleep`). */
export async function startListenerTarget(): Promise<ListenerTarget> {
  const dataDir = join(tempRoot('orca-hostile-listener-'), 'data');
  const host = await startHostileHost(dataDir);
  const run = await runOrca(['--json', '--data-dir', dataDir, 'run', '--cwd', '/', '--', 'sleep', '300']);
  if (run.code !== 0) {
    await host.stop();
    throw new Error(`orca run failed (${run.code}): ${run.stderr}`);
  }
  const { paneKey } = JSON.parse(run.stdout) as { paneKey: string };
  return { host, dataDir, paneKey, ...hookEndpoint(dataDir) };
}

/** One raw HTTP/1.1 hook POST (exact bytes; no client library rewriting headers). */
export function rawHookPost(opts: {
  token: string;
  body: string;
  contentType?: string | null;
  source?: string;
  extraHeaders?: string;
}): string {
  const ct = opts.contentType === null ? '' : `Content-Type: ${opts.contentType ?? 'application/json'}\r\n`;
  return (
    `POST /hook/${opts.source ?? 'claude'} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Orca-Agent-Hook-Token: ${opts.token}\r\n` +
    `${ct}${opts.extraHeaders ?? ''}Content-Length: ${Buffer.byteLength(opts.body)}\r\n\r\n${opts.body}`
  );
}

/** A JSON hook envelope for `paneKey` whose payload carries `marker`. */
export function markedBody(paneKey: string, marker: string): string {
  return JSON.stringify({ paneKey, payload: { hook_event_name: 'Notification', marker } });
}

/**
 * Writes `bytes` on one connection and resolves with what came back and how long the listener
 * kept the socket open (ms from connect to close).
 */
export function exchange(port: number, bytes: string, timeoutMs = 40_000): Promise<{ reply: string; heldMs: number }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let t0 = 0;
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`the listener kept the socket open for more than ${timeoutMs} ms`));
    }, timeoutMs);
    s.on('connect', () => {
      t0 = performance.now();
      if (bytes !== '') s.write(bytes);
    });
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', () => undefined);
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ reply: Buffer.concat(chunks).toString('latin1'), heldMs: performance.now() - t0 });
    });
  });
}

/** HTTP status lines in a raw reply, in order. */
export function statusLines(reply: string): string[] {
  return reply.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
}

/** Stops the host, then lists the payload markers stored for `paneKey` (store read after a clean stop). */
export async function storedMarkers(target: ListenerTarget): Promise<string[]> {
  await target.host.stop();
  const store = openStore(join(target.dataDir, 'orca.sqlite'));
  try {
    return store.hookRows(target.paneKey).map((r) => {
      const payload = (r.envelope as { payload?: { marker?: unknown } }).payload;
      return String(payload?.marker ?? '');
    });
  } finally {
    store.close();
  }
}
