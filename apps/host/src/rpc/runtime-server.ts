import { randomUUID } from 'node:crypto';
import { BROWSER_METHODS } from '@orca/wire/contract';
import {
  createDispatcher,
  DEFAULT_PASS_THROUGH_CODES,
  type Dispatcher,
  type MethodDefinition,
  parseRequest,
  RpcError,
} from '@orca/wire/rpc';
import { createTerminalHost, type TerminalBackend, type TerminalHost } from '@orca/wire/terminal-stream';
import { PANE_EXIT_DRAIN_MS } from '../constants.ts';
import { REFUSAL_CODES } from '../errors.ts';
import type { Host } from '../host/host-types.ts';
import { createClipboardFilter } from '../panes/clipboard-filter.ts';
import { runtimeMethod } from './contract-method.ts';
import { runtimeMethods } from './methods.ts';
import { type RpcConnection, type RpcHandlers, type RpcSocketServer, startRpcSocketServer } from './socket-server.ts';

/**
 * Builds the terminal backend of `terminal.multiplex` over the host's live panes. OSC 52
 * (clipboard) sequences from a pane are removed from the output unless `clipboard` was granted
 * to this client (`terminal.multiplex` params `{clipboard: true}`, `orca attach --allow-clipboard`).
 */
export function paneTerminalBackend(host: Host, grants: { clipboard?: boolean } = {}): TerminalBackend {
  return {
    open(handle) {
      let pane: ReturnType<Host['livePane']>;
      try {
        pane = host.livePane(handle);
      } catch {
        return null;
      }
      let claim: { before: { cols: number; rows: number }; cols: number; rows: number } | null = null;
      return {
        get cols() {
          return pane.screen.cols;
        },
        get rows() {
          return pane.screen.rows;
        },
        // Why: a keyboard never interleaves with a prompt being delivered: refused (WriteUnavailable) while it holds the pane.
        write(data) {
          if (pane.exit) return false;
          return pane.input.offer(data);
        },
        // Why: with desktopViewportClaims only a claim reaches here (plain Resize only registers
        // geometry); the size before this port's first claim comes back when its stream ends.
        resize(cols, rows) {
          if (pane.exit) return;
          claim ??= { before: { cols: pane.screen.cols, rows: pane.screen.rows }, cols, rows };
          claim.cols = cols;
          claim.rows = rows;
          pane.resize(cols, rows);
        },
        onEnd(listener) {
          let active = true;
          // Why: a PTY's last output can arrive just after its exit; let it reach the stream first.
          void pane.exited().then(() => setTimeout(() => active && listener(), PANE_EXIT_DRAIN_MS));
          return () => {
            active = false;
          };
        },
        release() {
          const c = claim;
          claim = null;
          if (!c || pane.exit) return;
          // Why: a later claimant (another attach) owns the size now; leave it alone.
          if (pane.screen.cols !== c.cols || pane.screen.rows !== c.rows) return;
          pane.resize(c.before.cols, c.before.rows);
        },
        serialize({ scrollbackRows, maxBytes }) {
          const snapshot = pane.screen.snapshot({ scrollbackRows, maxBytes });
          return {
            data: snapshot.data,
            cols: pane.screen.cols,
            rows: pane.screen.rows,
            ...(snapshot.truncatedByByteBudget ? { truncatedByByteBudget: true } : {}),
          };
        },
        onOutput: (listener) => {
          if (grants.clipboard === true) return pane.onOutput(listener);
          const filter = createClipboardFilter();
          return pane.onOutput((data) => {
            const shown = filter.push(data);
            if (shown.length > 0) listener(shown);
          });
        },
      };
    },
  };
}

/** Options of {@link createRuntimeHandlers}. */
export interface RuntimeHandlerOptions {
  readonly runtimeId: string;
  /** Methods added for one connection (the web server's session methods), beside the runtime's. */
  // biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
  readonly extraMethods?: (conn: RpcConnection) => MethodDefinition<any>[];
  /**
   * Only the methods the contract offers to browsers (`browser: true`) run; every other answers
   * `forbidden` (the web server's connections).
   */
  readonly browserOnly?: boolean;
}

/** `def` as a paired browser may call it: itself, or a method that answers `forbidden`. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
function forBrowser(def: MethodDefinition<any>): MethodDefinition<any> {
  if (BROWSER_METHODS.has(def.name)) return def;
  return {
    name: def.name,
    params: null,
    ...(def.streaming ? { streaming: true } : {}),
    handler: () => {
      throw new RpcError('forbidden', `${def.name} is not offered to browsers; run it with \`orca\` on the host`);
    },
  };
}

/**
 * The message handlers of a runtime connection: text messages are RPC envelopes dispatched by
 * `@orca/wire/rpc`, binary messages are terminal-stream frames for `@orca/wire/terminal-stream`.
 * Shared by the runtime socket and the web server (`orca start --web`).
 */
export function createRuntimeHandlers(host: Host, opts: RuntimeHandlerOptions): RpcHandlers {
  const { runtimeId } = opts;
  const terminalHosts = new WeakMap<RpcConnection, TerminalHost>();
  const baseMethods = runtimeMethods(host);
  const multiplexFor = (conn: RpcConnection) =>
    runtimeMethod(
      'terminal.multiplex',
      (p, ctx) =>
        new Promise<null>((resolve) => {
          const terminal = createTerminalHost({
            backend: paneTerminalBackend(host, { clipboard: p.clipboard === true }),
            send: (bytes) => conn.sendBinary(bytes),
            emit: (event) => ctx.emit(event),
          });
          // Why: createTerminalHost emits the one `ready` of the handshake itself.
          terminalHosts.set(conn, terminal);
          ctx.signal.addEventListener(
            'abort',
            () => {
              terminal.close();
              terminalHosts.delete(conn);
              resolve(null);
            },
            { once: true },
          );
        }),
    );
  // Why: terminal.multiplex binds the connection's binary side, so each connection gets its own dispatcher.
  const dispatchers = new WeakMap<RpcConnection, { dispatcher: Dispatcher; streaming: Set<string> }>();
  const dispatcherFor = (conn: RpcConnection) => {
    let entry = dispatchers.get(conn);
    if (!entry) {
      const all = [...baseMethods, multiplexFor(conn), ...(opts.extraMethods?.(conn) ?? [])];
      const methods = opts.browserOnly ? all.map(forBrowser) : all;
      entry = {
        dispatcher: createDispatcher({
          runtimeId,
          methods,
          passThroughCodes: [...new Set([...DEFAULT_PASS_THROUGH_CODES, ...REFUSAL_CODES])],
        }),
        streaming: new Set(methods.filter((m) => m.streaming).map((m) => m.name)),
      };
      dispatchers.set(conn, entry);
    }
    return entry;
  };
  return {
    onText(conn, text) {
      const { dispatcher, streaming } = dispatcherFor(conn);
      let mode: 'unary' | 'streaming' = 'unary';
      try {
        const parsed = parseRequest(JSON.parse(text));
        if (parsed.ok && streaming.has(parsed.value.method)) mode = 'streaming';
      } catch {
        // the dispatcher answers bad JSON itself
      }
      const controller = new AbortController();
      const release = conn.onClose(() => controller.abort());
      void dispatcher
        .dispatch(text, {
          mode,
          signal: controller.signal,
          onEvent: (event) => conn.sendText(JSON.stringify(event)),
        })
        .then((final) => conn.sendText(JSON.stringify(final)))
        .finally(release);
    },
    onBinary(conn, bytes) {
      terminalHosts.get(conn)?.receive(bytes);
    },
  };
}

/**
 * Serves the runtime RPC and `terminal.multiplex` over WebSocket on the host's `runtime.sock`
 * (and optionally TCP with a bearer token), with {@link createRuntimeHandlers}.
 *
 * @example
 * const host = await createHost({ dataDir });
 * const server = await startRuntimeServer(host);
 * // … at shutdown: the server first (no new requests), then the host.
 * await server.close();
 * await host.stop();
 */
export async function startRuntimeServer(
  host: Host,
  opts: {
    runtimeId?: string;
    tcp?: { port: number; token: string };
    extraMethods?: RuntimeHandlerOptions['extraMethods'];
  } = {},
): Promise<RpcSocketServer> {
  const runtimeId = opts.runtimeId ?? randomUUID();
  const server = await startRpcSocketServer({
    socketPath: host.paths.socket,
    ...(opts.tcp ? { tcp: opts.tcp } : {}),
    handlers: createRuntimeHandlers(host, {
      runtimeId,
      ...(opts.extraMethods ? { extraMethods: opts.extraMethods } : {}),
    }),
  });
  host.log.info({ socket: host.paths.socket, tcpPort: server.tcpPort }, 'runtime RPC listening');
  return server;
}
