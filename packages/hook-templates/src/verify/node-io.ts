import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { VerifyIo, VerifyRequest, VerifyRun } from './io.ts';

/** Harness bound per verifier run (liveness only), ms. */
export const VERIFY_RUN_KILL_MS = 30_000;

/** The real verifier I/O: node fs, child_process and a loopback `node:http` server. */
export const nodeVerifyIo: VerifyIo = {
  async readText(path) {
    try {
      return await readFile(path, 'utf8');
    } catch {
      return null;
    }
  },
  async writeFile(path, content, mode) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, { mode });
    await chmod(path, mode);
  },
  tempDir: () => mkdtemp(join(tmpdir(), 'orca-hooks-verify-')),
  removeDir: (path) => rm(path, { recursive: true, force: true }),
  which: (bin) =>
    new Promise((resolve) => {
      execFile('/bin/sh', ['-c', 'command -v "$1"', 'sh', bin], (err, stdout) =>
        resolve(err ? undefined : stdout.trim() || undefined),
      );
    }),
  run: (argv, opts) =>
    new Promise<VerifyRun>((resolve) => {
      const [cmd, ...args] = argv;
      if (cmd === undefined) {
        resolve({ code: null, stdout: '', stderr: 'empty argv', epipe: false });
        return;
      }
      const child = spawn(cmd, args, { env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let epipe = false;
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.stdin.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPIPE') epipe = true;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), VERIFY_RUN_KILL_MS);
      child.on('error', () => undefined);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({
          code,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
          epipe,
        });
      });
      child.stdin.end(opts.input);
    }),
  async startServer() {
    const requests: VerifyRequest[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return { port, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  },
  async deadPort() {
    const s = createServer();
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const port = (s.address() as AddressInfo).port;
    await new Promise<void>((resolve) => s.close(() => resolve()));
    return port;
  },
};
