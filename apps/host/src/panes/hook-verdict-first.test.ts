// A hook's verdict never waits behind the screen worker (issue 28): a worker stalled until the test
// releases it must not hold back the verdict of a hook row that decides on its own; the screen
// corrects the verdict once it caught up; a pane with no hooks keeps its screen path.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseFixture } from '@orca/agent-status/fixtures';
import { until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type HookTiming, newHookTiming } from '../status/hook-timing.ts';
import { type LivePane, type LivePaneRecord, startLivePane } from './live-pane.ts';
import type { PaneExit, PaneProcess } from './pane-process.ts';
import { inThreadScreens, type ScreenEngine } from './screen.ts';

const fixtures = join(
  dirname(createRequire(import.meta.url).resolve('@orca/agent-status/package.json')),
  'fixtures/real',
);
/** A full repaint of what Claude Code 2.1.332 drew at `moment` in the agents lab. */
const repaint = (moment: string): string =>
  `\x1b[H\x1b[2J${parseFixture(readFileSync(join(fixtures, `claude-2.1.332-${moment}.fixture`), 'utf8')).tail}`;

/** What happened, in order: the screen asked to settle, verdicts published, the stall released. */
type Happening = 'settle-asked' | 'released' | `verdict ${string}`;

/**
 * A screen engine whose worker stalls on demand: while stalled, writes are held unparsed (the
 * rendered rows stay what was parsed before) and `settled()` does not resolve until released.
 */
function stallableScreens(log: Happening[]) {
  let stalled = false;
  const held: { data: string; at: number }[] = [];
  const waiters: (() => void)[] = [];
  const backends: ReturnType<ScreenEngine>[] = [];
  const engine: ScreenEngine = (o) => {
    const inner = inThreadScreens(o);
    backends.push(inner);
    return {
      ...inner,
      write(data, at) {
        if (stalled) held.push({ data, at });
        else inner.write(data, at);
      },
      settled() {
        log.push('settle-asked');
        if (!stalled || held.length === 0) return inner.settled();
        return new Promise<void>((resolve) => waiters.push(resolve)).then(() => inner.settled());
      },
      caughtUp: () => held.length === 0 && inner.caughtUp(),
    };
  };
  return {
    engine,
    stall() {
      stalled = true;
    },
    heldWrites: () => held.length,
    release() {
      stalled = false;
      log.push('released');
      const inner = backends[0];
      for (const w of held.splice(0)) inner?.write(w.data, w.at);
      for (const resolve of waiters.splice(0)) resolve();
    },
  };
}

/** A pane process the test drives: its output is what the test emits. */
function scriptedProcess(): PaneProcess & { emit(chunk: string): void } {
  const data: ((chunk: string) => void)[] = [];
  const exits: ((exit: PaneExit) => void)[] = [];
  return {
    // Why: no such process: the foreground probe reads nothing (neither a shell nor an agent in front).
    pid: 0x3ffffe,
    write: () => undefined,
    resize: () => undefined,
    kill: () => {
      for (const l of exits) l({ code: 0, signal: null });
    },
    pause: () => undefined,
    resume: () => undefined,
    onData: (l) => data.push(l),
    onExit: (l) => exits.push(l),
    emit: (chunk) => {
      for (const l of data) l(chunk);
    },
  };
}

const claude = (event: string, extra: Record<string, unknown> = {}) => ({
  source: 'claude' as const,
  payload: { hook_event_name: event, session_id: 's', cwd: '/', ...extra },
  receivedAt: Date.now(),
});

const panes: LivePane[] = [];
afterEach(() => {
  for (const pane of panes.splice(0)) pane.process.kill();
});

function start() {
  const log: Happening[] = [];
  const screens = stallableScreens(log);
  const proc = scriptedProcess();
  const timings: HookTiming[] = [];
  const record: LivePaneRecord = {
    handle: `h-${panes.length}`,
    paneKey: `t:${panes.length}`,
    tabId: 't',
    name: null,
    cwd: '/',
    argv: ['claude'],
    guest: null,
    createdAt: Date.now(),
    title: null,
    exitedAt: null,
    exitCode: null,
    exitSignal: null,
    exitCause: null,
  };
  const pane = startLivePane({
    record,
    process: proc,
    now: Date.now,
    screens: screens.engine,
    onVerdict: (_pane, verdict) => log.push(`verdict ${verdict.status}`),
    onAgent: () => undefined,
    onExit: () => undefined,
    onTitle: () => undefined,
    onEvaluationError: (error) => {
      throw error;
    },
    hookTiming: (t) => timings.push(t),
  });
  panes.push(pane);
  /** Feeds a hook event the way the host's ingest does, timed like the listener's events. */
  const hook = (event: ReturnType<typeof claude>) => {
    const at = Date.now();
    pane.timing.arrived(
      newHookTiming(record.handle, { ...event, paneKey: record.paneKey, connectionId: 'local' }, at, at),
    );
    pane.status.addHookEvent(event);
  };
  return { pane, proc, screens, log, hook, timings };
}

/** Everything logged from index `from` on. */
const since = (log: readonly Happening[], from: number): Happening[] => log.slice(from);

describe('a hook verdict with the screen worker stalled', () => {
  it('publishes working at once; the menu parsed afterwards corrects it to permission', async () => {
    const { pane, proc, screens, log, hook, timings } = start();
    proc.emit(repaint('idle'));
    hook(claude('Stop'));
    await until('idle at the prompt', () => pane.verdict?.status === 'idle');

    screens.stall();
    proc.emit(repaint('permission-shell'));
    const mark = log.length;
    hook(claude('UserPromptSubmit', { prompt: 'run it' }));
    await until('the hook verdict', () => pane.verdict?.status === 'working');

    expect(screens.heldWrites()).toBeGreaterThan(0);
    expect(since(log, mark)[0]).toBe('verdict working');
    expect(since(log, mark)).not.toContain('released');
    expect(timings.at(-1)).toMatchObject({ screenWaited: false, changed: true });

    screens.release();
    await until('the screen corrects it', () => pane.verdict?.status === 'permission');
    expect(pane.verdict).toEqual({
      status: 'permission',
      isRunningAgent: true,
      agentWait: expect.objectContaining({ source: 'prompt-text' }),
    });
  });

  it('publishes done (idle) at once while the worker still holds the last turn', async () => {
    const { pane, proc, screens, log, hook } = start();
    proc.emit(repaint('working-stream'));
    hook(claude('UserPromptSubmit', { prompt: 'fix it' }));
    await until('working', () => pane.verdict?.status === 'working');

    screens.stall();
    proc.emit(repaint('idle'));
    const mark = log.length;
    hook(claude('Stop'));
    await until('the hook verdict', () => pane.verdict?.status === 'idle');

    expect(screens.heldWrites()).toBeGreaterThan(0);
    expect(since(log, mark)[0]).toBe('verdict idle');
    screens.release();
    await until('the screen caught up', () => screens.heldWrites() === 0 && pane.screen.caughtUp());
    expect(pane.verdict?.status).toBe('idle');
  });

  it('publishes a permission request within its dialog grace at once, before its dialog is parsed', async () => {
    const { pane, proc, screens, log, hook } = start();
    proc.emit(repaint('working-tool'));
    hook(claude('UserPromptSubmit', { prompt: 'run it' }));
    await until('working', () => pane.verdict?.status === 'working');

    screens.stall();
    proc.emit(repaint('permission-shell'));
    const mark = log.length;
    hook(
      claude('PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_1' }),
    );
    await until('the hook verdict', () => pane.verdict?.status === 'permission');

    expect(screens.heldWrites()).toBeGreaterThan(0);
    expect(since(log, mark)[0]).toBe('verdict permission');
    expect(pane.verdict).toEqual({
      status: 'permission',
      isRunningAgent: true,
      agentWait: expect.objectContaining({ source: 'hook' }),
    });
    screens.release();
    await until('the screen caught up', () => pane.screen.caughtUp());
    expect(pane.verdict?.status).toBe('permission');
  });
});

describe('a pane with no hooks and the screen worker stalled', () => {
  it('keeps its screen path: no permission before the menu is parsed, permission once it is', async () => {
    const { pane, proc, screens, log } = start();
    proc.emit(repaint('working-stream'));
    await until('the first verdict', () => pane.verdict !== null);

    screens.stall();
    const mark = log.length;
    let evaluated = 0;
    pane.onChange(() => {
      evaluated += 1;
    });
    proc.emit(repaint('permission-shell'));
    await until('an evaluation of the output that read the stale screen', () => evaluated > 0);

    expect(since(log, mark)).toContain('settle-asked');
    expect(pane.verdict?.status).not.toBe('permission');
    screens.release();
    await until('the screen decides', () => pane.verdict?.status === 'permission');
    expect(pane.verdict).toEqual({
      status: 'permission',
      isRunningAgent: true,
      agentWait: expect.objectContaining({ source: 'prompt-text' }),
    });
  });
});
