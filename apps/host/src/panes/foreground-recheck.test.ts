import { until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type LivePane, type LivePaneRecord, startLivePane } from './live-pane.ts';
import { spawnPaneProcess } from './pane-process.ts';

const RECHECK_MS = 50;
const panes: LivePane[] = [];
afterEach(async () => {
  for (const pane of panes.splice(0)) {
    pane.process.kill();
    await pane.exited();
  }
});

function start(argv: string[]): LivePane {
  const record: LivePaneRecord = {
    handle: `h-${panes.length}`,
    paneKey: `t:${panes.length}`,
    tabId: 't',
    name: null,
    cwd: '/',
    argv,
    guest: null,
    createdAt: Date.now(),
    title: null,
    exitedAt: null,
    exitCode: null,
    exitSignal: null,
    exitCause: null,
  };
  const [file, ...args] = argv;
  const pane = startLivePane({
    record,
    process: spawnPaneProcess({
      file: file ?? '/bin/sh',
      args,
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      cols: 80,
      rows: 24,
    }),
    now: Date.now,
    onVerdict: () => undefined,
    onAgent: () => undefined,
    onExit: () => undefined,
    onTitle: () => undefined,
    onEvaluationError: (error) => {
      throw error;
    },
    foregroundRecheckMs: RECHECK_MS,
  });
  panes.push(pane);
  return pane;
}

describe.skipIf(process.platform !== 'linux')('the foreground probe', () => {
  it('asks for no evaluation while the foreground is what the last evaluation saw', async () => {
    const pane = start(['/bin/sleep', '30']);
    await until('the first evaluation', () => pane.counters.evaluations > 0);
    await until('ten probes', () => pane.counters.foregroundProbes >= 10);
    expect(pane.counters.evaluations).toBe(1);
  });

  it('asks for one when the foreground process changed with no output', async () => {
    const pane = start(['/bin/sh', '-c', 'stty -echo; echo ready; read line; exec sleep 30']);
    await until(
      'the shell waits, evaluated',
      () => pane.screen.renderedRows().some((r) => r.includes('ready')) && pane.counters.evaluations > 0,
    );
    await until('two probes after it', () => pane.counters.foregroundProbes >= 2);
    const evaluations = pane.counters.evaluations;
    const bytes = pane.screen.renderedRows().join('\n');
    pane.write('\r');
    await until('an evaluation after the exec', () => pane.counters.evaluations > evaluations);
    expect(pane.screen.renderedRows().join('\n')).toBe(bytes);
  });
});
