import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { describe, expect, it } from 'vitest';
import type { PaneView } from '../src/panes/pane-view.ts';
import { connectRuntime } from '../src/rpc/client.ts';
import { CLI_ENTRY, startOrca, TSX_CLI } from './cli-process.ts';

/** A pane command that posts one Claude-dialect hook event with real curl, using only its env. */
function curlHook(event: string): string {
  const payload = JSON.stringify({ hook_event_name: event, session_id: 's1' });
  return [
    `printf '%s' '${payload}' | curl -sS -f -X POST "http://127.0.0.1:$ORCA_AGENT_HOOK_PORT/hook/claude"`,
    `-H "X-Orca-Agent-Hook-Token: $ORCA_AGENT_HOOK_TOKEN" -H 'Content-Type: application/x-www-form-urlencoded'`,
    `--data-urlencode "paneKey=$ORCA_PANE_KEY" --data-urlencode "tabId=$ORCA_TAB_ID" --data-urlencode 'payload@-'`,
  ].join(' ');
}

describe('orca status --watch (the real CLI against a real host)', () => {
  it('lists the panes, prints each verdict change as it happens, and exits 0 on SIGINT', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-watch-')), 'data');
    const host = await startOrca(dataDir);
    const client = await connectRuntime(dataDir);
    const watch = spawn(
      process.execPath,
      [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, '--json', '--data-dir', dataDir, 'status', '--watch'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      watch.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        watch.on('exit', (code, signal) => resolve({ code, signal })),
      );
      await until('the first listing', () => out.includes('"panes"'));
      expect(JSON.parse(out.split('\n')[0] ?? '')).toEqual({ panes: [] });
      const pane = await client.call('terminal.create', {
        // Why: a shell in front owns the pane (no agent); a node process in front fires the hooks as an agent would.
        argv: [
          process.execPath,
          '-e',
          "const { execSync } = require('child_process'); setTimeout(() => execSync(process.env.PROMPT_HOOK), 300); setTimeout(() => execSync(process.env.STOP_HOOK), 1500); setTimeout(() => {}, 30000);",
        ],
        env: { PROMPT_HOOK: curlHook('UserPromptSubmit'), STOP_HOOK: curlHook('Stop') },
        cwd: '/',
      });
      const changes = () =>
        out
          .split('\n')
          .slice(1)
          .filter((l) => l.trim().length > 0)
          .map((l) => JSON.parse(l) as { handle: string; verdict: PaneView });
      await until('working then idle', () => {
        const statuses = changes()
          .filter((c) => c.handle === pane.handle)
          .map((c) => c.verdict.status);
        return statuses.includes('working') && statuses.lastIndexOf('idle') > statuses.indexOf('working');
      });
      watch.kill('SIGINT');
      expect(await exited).toEqual({ code: 0, signal: null });
    } finally {
      watch.kill('SIGKILL');
      client.close();
      await host.stop();
    }
  }, 120_000);
});
