import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/store.ts';
import { createHostCommandHooks } from './command-hooks.ts';

const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const STOPS = 12;
/** The per-thread running cap of `@orca/command-hooks` (spec: 8 running, 100 pending). */
const RUNNING_CAP = 8;

describe('the host runs command hooks through one runner', () => {
  it(`${STOPS} stop events of one pane run at most ${RUNNING_CAP} hooks at once, every run recorded`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-cmd-hooks-'));
    const project = join(root, 'project');
    const running = join(root, 'running');
    const counts = join(root, 'counts');
    mkdirSync(join(project, '.claude'), { recursive: true });
    mkdirSync(running);
    writeFileSync(counts, '');
    // Why: each run marks itself running, records how many are running, and holds for a moment.
    const command = `mkdir "${running}/$$"; ls "${running}" | wc -l >> "${counts}"; sleep 0.6; rmdir "${running}/$$"`;
    writeFileSync(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } }),
    );
    const store = openStore(join(root, 'orca.sqlite'));
    stores.push(store);
    const hooks = createHostCommandHooks({ store, home: join(root, 'home') });
    const pane = { handle: 'pane-1', paneKey: 'key-1', cwd: project };
    for (let i = 0; i < STOPS; i++) hooks.stop(pane);
    await hooks.whenIdle();
    const seen = readFileSync(counts, 'utf8').trim().split('\n').map(Number);
    console.log(`concurrent stop hooks seen: max ${Math.max(...seen)} of ${seen.length} runs`);
    expect(seen).toHaveLength(STOPS);
    expect(Math.max(...seen)).toBeLessThanOrEqual(RUNNING_CAP);
    expect(readdirSync(running)).toEqual([]);
    expect(store.countCommandHookRuns()).toBe(STOPS);
  }, 30_000);
});

describe('discovery of the hook files', () => {
  function project(): { root: string; dir: string; settings: (command: string, event: string) => void } {
    const root = mkdtempSync(join(tmpdir(), 'orca-cmd-discovery-'));
    const dir = join(root, 'project');
    mkdirSync(join(dir, '.cursor'), { recursive: true });
    return {
      root,
      dir,
      settings: (command, event) =>
        writeFileSync(
          join(dir, '.cursor', 'hooks.json'),
          JSON.stringify({ version: 1, hooks: { [event]: [{ command }] } }),
        ),
    };
  }

  it('stop reuses one discovery of a cwd for a second, then reads the files again', async () => {
    const p = project();
    const marks = join(p.root, 'marks');
    writeFileSync(marks, '');
    p.settings(`echo first >> "${marks}"`, 'stop');
    const store = openStore(join(p.root, 'orca.sqlite'));
    stores.push(store);
    let clock = 1_000_000;
    const hooks = createHostCommandHooks({ store, home: join(p.root, 'home'), now: () => clock });
    const pane = { handle: 'pane-1', paneKey: 'key-1', cwd: p.dir };
    hooks.stop(pane);
    await hooks.whenIdle();
    p.settings(`echo second >> "${marks}"`, 'stop');
    clock += 500;
    hooks.stop(pane);
    await hooks.whenIdle();
    clock += 1_000;
    hooks.stop(pane);
    await hooks.whenIdle();
    expect(readFileSync(marks, 'utf8').trim().split('\n')).toEqual(['first', 'first', 'second']);
  });

  it('the prompt gate reads the files afresh: a deny hook added a moment after a stop holds at once', async () => {
    const p = project();
    p.settings('true', 'stop');
    const store = openStore(join(p.root, 'orca.sqlite'));
    stores.push(store);
    const hooks = createHostCommandHooks({ store, home: join(p.root, 'home'), now: () => 1_000_000 });
    const pane = { handle: 'pane-1', paneKey: 'key-1', cwd: p.dir };
    hooks.stop(pane);
    await hooks.whenIdle();
    p.settings(`echo '{"continue":false,"user_message":"no"}'`, 'beforeSubmitPrompt');
    const gate = await hooks.beforeSubmitPrompt(pane, 'hello');
    expect(gate.blocked).toBe(true);
  });
});
