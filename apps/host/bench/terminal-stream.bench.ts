// Pane output delivered to an attached client over the real runtime socket (terminal.multiplex
// with ackOutput flow control, @orca/wire client) vs @xterm/headless parsing the same bytes alone.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareWithFloor, reportBench } from '@orca/bench';
import { createTerminalClient } from '@orca/wire/terminal-stream';
import xtermHeadless from '@xterm/headless';
import WebSocket, { WebSocketServer } from 'ws';
import { createHost } from '../src/host/host.ts';
import { spawnPaneProcess } from '../src/panes/pane-process.ts';
import { connectRuntime } from '../src/rpc/client.ts';
import { startRuntimeServer } from '../src/rpc/runtime-server.ts';
import { silentLogger } from '../src/runtime/logger.ts';

const MB = Number(process.env.ORCA_BENCH_STREAM_MB ?? 16);
const MARKER = 'END-OF-STREAM-BENCH';
const line = `\x1b[32mstream\x1b[0m ${'y'.repeat(100)}\n`;
const text = `${line.repeat(Math.ceil((MB * 1024 * 1024) / line.length))}${MARKER}\n`;
const root = mkdtempSync(join(tmpdir(), 'orca-stream-'));
const file = join(root, 'out.txt');
writeFileSync(file, text);

const host = await createHost({ dataDir: join(root, 'data'), logger: silentLogger(), home: root });
const server = await startRuntimeServer(host);
const client = await connectRuntime(join(root, 'data'));

async function streamedToClient(): Promise<void> {
  const pane = await host.createPane({ argv: ['/bin/sh', '-c', `read go; cat '${file}'; sleep 30`], cwd: '/' });
  let tail = '';
  let subscribed = false;
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((r) => {
    resolveDone = r;
  });
  const terminal = createTerminalClient({
    type: 'desktop',
    send: (bytes) => {
      client.socket.send(bytes, { binary: true });
      return true;
    },
    call: (method, params) => client.send(method, params, (event) => terminal.handleEvent(event)),
  });
  const onMessage = (data: Buffer, isBinary: boolean): void => {
    if (isBinary) terminal.receive(new Uint8Array(data));
  };
  client.socket.on('message', onMessage);
  const id = terminal.subscribe({
    terminal: pane.handle,
    sink: {
      onSubscribed: () => {
        subscribed = true;
      },
      onOutput: (t) => {
        tail = (tail + t).slice(-64);
        if (tail.includes(MARKER)) resolveDone();
      },
    },
  });
  while (!subscribed) await new Promise((r) => setTimeout(r, 5));
  host.send(pane.handle, 'go\r');
  await done;
  terminal.unsubscribe(id);
  client.socket.off('message', onMessage);
  host.livePane(pane.handle).process.kill('SIGKILL');
}

async function xtermAlone(): Promise<void> {
  const term = new xtermHeadless.Terminal({ cols: 120, rows: 40, scrollback: 1000, allowProposedApi: true });
  for (let i = 0; i < text.length; i += 65_536) term.write(text.slice(i, i + 65_536));
  await new Promise<void>((resolve) => term.write('', resolve));
  term.dispose();
}

// The floor: the least an attached stream does, written plainly — the PTY read into one
// @xterm/headless terminal and each chunk sent as it is over a loopback WebSocket to a client that
// reads until the end marker: no frames, no flow control, no multiplexing, no host around it.
const floorServer = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await new Promise<void>((resolve) => floorServer.once('listening', () => resolve()));
const floorPort = (floorServer.address() as { port: number }).port;
async function ptyToSocket(): Promise<void> {
  const accepted = new Promise<WebSocket>((resolve) => floorServer.once('connection', resolve));
  const receiver = new WebSocket(`ws://127.0.0.1:${floorPort}`);
  const sender = await accepted;
  await new Promise<void>((resolve) =>
    receiver.readyState === WebSocket.OPEN ? resolve() : receiver.once('open', () => resolve()),
  );
  let tail = '';
  const done = new Promise<void>((resolve) => {
    receiver.on('message', (data: Buffer) => {
      tail = (tail + data.toString('utf8')).slice(-64);
      if (tail.includes(MARKER)) resolve();
    });
  });
  const term = new xtermHeadless.Terminal({ cols: 120, rows: 40, scrollback: 1000, allowProposedApi: true });
  // Why: the shell stays after cat, as in the host's pane, so the PTY is not closed before it is read out.
  const proc = spawnPaneProcess({
    file: '/bin/sh',
    args: ['-c', `cat '${file}'; sleep 30`],
    cwd: '/',
    env: {},
    cols: 120,
    rows: 40,
  });
  proc.onData((chunk) => {
    term.write(chunk);
    sender.send(chunk);
  });
  await done;
  proc.kill('SIGKILL');
  term.dispose();
  receiver.close();
  sender.close();
}

const c = await compareWithFloor(streamedToClient, ptyToSocket, xtermAlone, { samples: 3, warmup: 1 });
client.close();
await server.close();
await host.stop();
await new Promise<void>((resolve) => floorServer.close(() => resolve()));
const mbps = (ns: number): number => text.length / 1024 / 1024 / (ns / 1e9);
// Why: ≥ 0.5× xterm alone assumed the PTY and the socket cost nothing; the plain pipeline is the floor.
reportBench({
  name: `terminal stream ${MB} MB to an attached client (PTY+emulator+multiplex) vs xterm alone`,
  ours: mbps(c.ours),
  baseline: mbps(c.baseline),
  ratio: mbps(c.ours) / mbps(c.baseline),
  floor: mbps(c.floorNs) / mbps(c.baseline),
  target: '>= floor × 0.7',
  unit: 'MB/s',
  detail: `floor ${mbps(c.floorNs).toFixed(1)} MB/s`,
});
