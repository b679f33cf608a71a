import { randomUUID } from 'node:crypto';
import { type RuntimeContract, type TypedCaller, typedCaller } from '@orca/wire/contract';
import { createRpcCallRouter, type RpcFailure } from '@orca/wire/rpc';
import WebSocket from 'ws';
import { CLIENT_CONNECT_TIMEOUT_MS } from '../constants.ts';
import { HostError } from '../errors.ts';
import { dataPaths } from '../runtime/data-dir.ts';
import { isPidAlive, readRuntimeInfo } from '../runtime/runtime-file.ts';

/**
 * A refused or failed RPC call as the host answered it: `code` is the wire code
 * (`agent_prompt_blocked`, `runtime_error`, …), `data` the failure's data.
 */
export class RpcCallError extends Error {
  readonly code: string;
  /** Same as {@link code} (kept for callers that read it). */
  readonly rpcCode: string;
  readonly data: unknown;
  constructor(failure: RpcFailure) {
    super(failure.error.message);
    this.name = 'RpcCallError';
    this.code = failure.error.code;
    this.rpcCode = failure.error.code;
    this.data = failure.error.data;
  }
}

/**
 * A connection to a running host's runtime socket. `call` and `stream` are typed by the runtime
 * contract (`@orca/wire/contract`); `send` is the untyped call (any method name, for probes and
 * clients of other versions).
 */
export interface RuntimeClient extends TypedCaller<RuntimeContract> {
  send(method: string, params?: unknown, onEvent?: (event: unknown) => void): Promise<unknown>;
  /** The underlying socket (binary terminal-stream frames). */
  readonly socket: WebSocket;
  close(): void;
}

/**
 * Connects to the host whose data directory is `dataDir` through `runtime.json` → `runtime.sock`.
 * No host → `ORCA_HOST_NOT_RUNNING` naming the directory and what to do.
 *
 * @example
 * const client = await connectRuntime('/home/me/.local/share/orca');
 * const status = await client.call('status.get');
 */
export async function connectRuntime(dataDir: string): Promise<RuntimeClient> {
  const info = readRuntimeInfo(dataPaths(dataDir).runtimeJson);
  if (!info || !isPidAlive(info.pid)) {
    throw new HostError('ORCA_HOST_NOT_RUNNING', `no host is running on ${dataDir}; start one with \`orca start\``);
  }
  if (info.keeper === true) {
    throw new HostError(
      'ORCA_HOST_NOT_RUNNING',
      `no host is running on ${dataDir}; its agents keep running in orca-keeper (pid ${info.pid}): \`orca start\` takes them over, \`orca stop --all\` ends them`,
    );
  }
  const socket = new WebSocket(`ws+unix://${info.socket}:/`);
  await opened(socket, `the host (pid ${info.pid}) on ${info.socket}`);
  return clientOver(socket);
}

/**
 * Connects to a host's TCP listener (`orca start --listen 127.0.0.1:PORT`) at `url`
 * (`ws://127.0.0.1:PORT`) with its bearer token. A refused token → `ORCA_HOST_AUTH`; the token is
 * sent only in the `Authorization` header and never appears in an error.
 *
 * @example
 * const client = await connectRemoteRuntime('ws://127.0.0.1:7070', token);
 */
export async function connectRemoteRuntime(url: string, token: string): Promise<RuntimeClient> {
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  await opened(socket, `the host at ${url}`);
  return clientOver(socket);
}

/** Waits for `socket` to open; every failure becomes a typed error naming `what` (never the token). */
function opened(socket: WebSocket, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new HostError('ORCA_HOST_NOT_RUNNING', `${what} did not accept a connection`));
    }, CLIENT_CONNECT_TIMEOUT_MS);
    socket.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      socket.terminate();
      reject(
        res.statusCode === 401
          ? new HostError(
              'ORCA_HOST_AUTH',
              `${what} refused the token; pass the host's runtime-token file with --token-file or set ORCA_RUNTIME_TOKEN`,
            )
          : new HostError('ORCA_HOST_NOT_RUNNING', `${what} answered HTTP ${res.statusCode}, not a WebSocket`),
      );
    });
    socket.once('open', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new HostError('ORCA_HOST_NOT_RUNNING', `cannot connect to ${what}: ${error.message}`));
    });
  });
}

/** RPC over an open socket. */
function clientOver(socket: WebSocket): RuntimeClient {
  // Why: a socket error after the handshake is followed by 'close', which fails every pending call.
  socket.on('error', () => undefined);
  const router = createRpcCallRouter((failure) => new RpcCallError(failure));
  socket.on('message', (data, isBinary) => {
    if (!isBinary) router.receive(String(data));
  });
  socket.on('close', () => router.failAll(new HostError('ORCA_HOST_NOT_RUNNING', 'the host closed the connection')));
  const send = (method: string, params: unknown, onEvent?: (r: unknown) => void): Promise<unknown> => {
    const id = randomUUID();
    const answer = router.expect<unknown>(id, onEvent);
    socket.send(JSON.stringify({ id, method, ...(params === undefined ? {} : { params }) }));
    return answer;
  };
  return {
    ...typedCaller<RuntimeContract>(send),
    send,
    socket,
    close: () => socket.close(),
  };
}
