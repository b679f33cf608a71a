import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the loopback server saw. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A real loopback HTTP server recording every request; answers `status` (default 204). */
export interface RecordingServer {
  port: number;
  requests: RecordedRequest[];
  /** Requests whose token header equals `token`. */
  byToken(token: string): RecordedRequest[];
  status: number;
  close(): Promise<void>;
}

/** Starts a recording server on 127.0.0.1 with an ephemeral port. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const state = { status: 204 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.statusCode = state.status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    byToken: (token) => requests.filter((r) => r.headers['x-orca-agent-hook-token'] === token),
    get status() {
      return state.status;
    },
    set status(v: number) {
      state.status = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port with nothing listening (bound, then released). */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function decodeComponent(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (text[i] === '%' && i + 2 < text.length + 0 && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(text[i] === '+' ? 0x20 : ch);
  }
  return Buffer.from(bytes);
}

/** Parses a URL-encoded form body into ordered [key, value bytes] pairs, byte-exact. */
export function parseForm(body: Buffer): [string, Buffer][] {
  const text = body.toString('latin1');
  if (text === '') return [];
  return text.split('&').map((part) => {
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    return [decodeComponent(key).toString('utf8'), decodeComponent(value)];
  });
}
