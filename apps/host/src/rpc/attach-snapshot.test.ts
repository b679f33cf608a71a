import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTerminalClient } from '@orca/wire/terminal-stream';
import xtermHeadless from '@xterm/headless';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../host/host.ts';
import { silentLogger } from '../runtime/logger.ts';
import { connectRuntime } from './client.ts';
import { startRuntimeServer } from './runtime-server.ts';

const { Terminal } = xtermHeadless;
type Term = InstanceType<typeof Terminal>;
const COLS = 60;
const ROWS = 16;

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

/** A full-screen TUI frame: the alternate screen, colours (16, 256, RGB), bold/italic/underline/inverse, a cursor left mid-screen. */
function tuiFrame(): string {
  let out = 'before the tui\r\n\x1b[?1049h\x1b[2J\x1b[H';
  out += '\x1b[1;37;44m agents board \x1b[0m\r\n';
  for (let i = 0; i < 8; i += 1) {
    out += `\x1b[${i + 3};2H\x1b[38;5;${16 + i * 20}m●\x1b[0m pane-${i} `;
    out += i % 2 === 0 ? '\x1b[3;32mworking\x1b[0m' : '\x1b[4;38;2;255;120;0mwaiting\x1b[0m';
    out += `\x1b[${i + 3};40H\x1b[7m ${String(i * 13).padStart(3)} \x1b[0m`;
  }
  out += `\x1b[${ROWS};1H\x1b[48;5;236m${' '.repeat(COLS)}\x1b[0m\x1b[7;20H`;
  return out;
}

function written(term: Term, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

/** Every cell of the active buffer: text, colours (mode + value), attributes; plus cursor and buffer type. */
function cells(term: Term): unknown {
  const buffer = term.buffer.active;
  const rows: unknown[] = [];
  for (let y = 0; y < term.rows; y += 1) {
    const line = buffer.getLine(buffer.viewportY + y);
    const row: unknown[] = [];
    for (let x = 0; x < term.cols; x += 1) {
      const c = line?.getCell(x);
      row.push(
        c && [
          c.getChars(),
          c.getFgColorMode(),
          c.getFgColor(),
          c.getBgColorMode(),
          c.getBgColor(),
          c.isBold(),
          c.isItalic(),
          c.isUnderline(),
          c.isInverse(),
        ],
      );
    }
    rows.push(row);
  }
  return { type: buffer.type, cursor: [buffer.cursorX, buffer.cursorY], rows };
}

describe('the attach snapshot rebuilds the screen cell by cell', () => {
  it('a client emulator fed only the snapshot equals the host emulator of a full-screen TUI (text, colours, attributes, cursor, alternate screen)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-snapshot-'));
    const host = await createHost({ dataDir: join(root, 'data'), logger: silentLogger(), home: root });
    const server = await startRuntimeServer(host);
    cleanup.push(() => server.close().finally(() => host.stop()));
    const client = await connectRuntime(join(root, 'data'));
    cleanup.push(() => client.close());
    const frame = tuiFrame();
    const go = join(root, 'go');
    // Why: the TUI paints only once the pane has its final size, as a real one repaints on SIGWINCH.
    const program = `const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(go)})) { clearInterval(t); process.stdout.write(${JSON.stringify(frame)}); } }, 20); setTimeout(() => {}, 30000);`;
    const pane = await host.createPane({ argv: [process.execPath, '-e', program], cwd: '/' });
    host.livePane(pane.handle).resize(COLS, ROWS);
    writeFileSync(go, '');
    // The host's emulator is @xterm/headless fed the pane's bytes; this one is fed the same bytes.
    const reference = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
    await written(reference, frame.replace(/\n/g, '\r\n').replace(/\r\r\n/g, '\r\n'));
    const screen = host.livePane(pane.handle).screen;
    for (let i = 0; i < 400 && !screen.renderedRows().some((r) => r.includes('pane-7')); i += 1) {
      await new Promise((r) => setTimeout(r, 25));
      await screen.settled();
    }
    expect(screen.renderedRows().some((r) => r.includes('pane-7'))).toBe(true);

    const terminal = createTerminalClient({
      type: 'desktop',
      send: (bytes) => {
        client.socket.send(bytes, { binary: true });
        return true;
      },
      call: (method, params) => client.send(method, params, (event) => terminal.handleEvent(event)),
    });
    client.socket.on('message', (data, isBinary) => {
      if (isBinary) terminal.receive(new Uint8Array(data as Buffer));
    });
    let snapshot: string | undefined;
    terminal.subscribe({ terminal: pane.handle, sink: { onSnapshot: (s) => (snapshot = s.data) } });
    for (let i = 0; i < 200 && snapshot === undefined; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(snapshot).toBeDefined();
    const attached = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
    await written(attached, snapshot ?? '');
    expect(cells(attached)).toEqual(cells(reference));
    expect((cells(attached) as { type: string }).type).toBe('alternate');
  }, 60_000);
});
