// Maximum sustainable pane output: bytes through a real PTY + OSC 9999 parser + @xterm/headless
// (the host's pane pipeline) vs @xterm/headless parsing the same bytes alone.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareWithFloor, reportBench } from '@orca/bench';
import xtermHeadless from '@xterm/headless';
import { PANE_SCROLLBACK_LINES } from '../src/constants.ts';
import { spawnPaneProcess } from '../src/panes/pane-process.ts';
import { createPaneStatus } from '../src/panes/pane-status.ts';
import { createPaneScreen } from '../src/panes/screen.ts';

const TOTAL_BYTES = 8 * 1024 * 1024;
const CHUNK = 64 * 1024;
// Why: every side keeps a pane's scrollback; a 1,000-line terminal beside the pane's 5,000 lines
// timed the deeper buffer (its GC) as pipeline overhead: at equal depth the pane ran at 0.94–1.0 of the floor.
const TERMINAL = { cols: 120, rows: 40, scrollback: PANE_SCROLLBACK_LINES, allowProposedApi: true } as const;

function colouredOutput(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  let i = 0;
  while (size < bytes) {
    const line = `\x1b[3${i % 8}mline ${i}\x1b[0m the quick brown fox jumps over the lazy dog ${'x'.repeat(i % 40)}\r\n`;
    const osc = i % 100 === 0 ? `\x1b]9999;{"state":"working"}\x07` : '';
    parts.push(osc, line);
    size += line.length + osc.length;
    i += 1;
  }
  return parts.join('');
}

const text = colouredOutput(TOTAL_BYTES);
const file = join(mkdtempSync(join(tmpdir(), 'orca-bench-')), 'out.txt');
writeFileSync(file, text);

async function throughPane(): Promise<void> {
  const screen = createPaneScreen({ cols: 120, rows: 40, scrollback: PANE_SCROLLBACK_LINES });
  const status = createPaneStatus({ ptyId: 'bench', screen, now: Date.now, exited: () => false, onEvidence: () => {} });
  const proc = spawnPaneProcess({ file: '/bin/cat', args: [file], cwd: '/', env: {}, cols: 120, rows: 40 });
  proc.onData((chunk) => screen.write(status.filterOutput(chunk)));
  await new Promise<void>((resolve) => proc.onExit(() => resolve()));
  await screen.settled();
  status.finish();
  screen.dispose();
}

async function xtermAlone(): Promise<void> {
  const term = new xtermHeadless.Terminal(TERMINAL);
  for (let i = 0; i < text.length; i += CHUNK) term.write(text.slice(i, i + CHUNK));
  await new Promise<void>((resolve) => term.write('', resolve));
  term.dispose();
}

// The floor: the least a pane pipeline does, written plainly — the same PTY read straight into one
// @xterm/headless terminal, with no OSC parser, no status, no tail and no screen model around it.
async function ptyIntoXterm(): Promise<void> {
  const term = new xtermHeadless.Terminal(TERMINAL);
  const proc = spawnPaneProcess({ file: '/bin/cat', args: [file], cwd: '/', env: {}, cols: 120, rows: 40 });
  proc.onData((chunk) => term.write(chunk));
  await new Promise<void>((resolve) => proc.onExit(() => resolve()));
  await new Promise<void>((resolve) => term.write('', resolve));
  term.dispose();
}

const c = await compareWithFloor(throughPane, ptyIntoXterm, xtermAlone, { samples: 9, warmup: 1 });
const mbps = (ns: number): number => TOTAL_BYTES / 1024 / 1024 / (ns / 1e9);
// Why: ≥ 0.5× xterm alone assumed the PTY costs nothing; a PTY read at its pace is the floor here.
reportBench({
  name: 'pane output MB/s (PTY + OSC parser + xterm) vs xterm alone',
  ours: mbps(c.ours),
  baseline: mbps(c.baseline),
  ratio: mbps(c.ours) / mbps(c.baseline),
  floor: mbps(c.floorNs) / mbps(c.baseline),
  target: '>= floor × 0.8',
  unit: 'MB/s',
  detail: `floor ${mbps(c.floorNs).toFixed(1)} MB/s, ${PANE_SCROLLBACK_LINES}-line scrollback on every side`,
});
