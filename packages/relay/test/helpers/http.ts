import { request } from 'node:http';
import { connect } from 'node:net';

/** Result of a raw hook POST in tests. */
export interface PostResult {
  status: number;
  closed: boolean;
}

/** POST to 127.0.0.1 with no keep-alive; resolves with the status (or rejects on socket error). */
export function httpRequest(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: opts.method ?? 'POST', path: opts.path, headers: opts.headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, closed: res.headers.connection === 'close' }));
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.end(opts.body);
    else req.end();
  });
}

/** Send raw bytes and collect everything until the server closes. */
export function rawExchange(port: number, bytes: string | Buffer, holdOpen = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', (e) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('latin1')) : reject(e)));
    s.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    s.write(bytes);
    if (!holdOpen) s.end();
  });
}
