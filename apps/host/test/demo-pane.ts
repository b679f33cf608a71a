import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { expect } from 'vitest';
import { installHooks } from '../src/agent-hooks/install-hooks.ts';
import { demoAgentPath } from '../src/demo/demo-agent-path.ts';
import type { Host } from '../src/host/host.ts';

/** The demo agent (Claude's hook dialect, real generated hook scripts through real curl) in a pane. */
export interface DemoPane {
  readonly handle: string;
  /** The user turns the agent took, each the prompt as submitted (what a model server would see). */
  turns(): string[];
  /** Every byte the agent read from its terminal. */
  echo(): string;
}

export async function demoPane(
  host: Host,
  root: string,
  env: { tool?: string; replyMs?: number } = {},
): Promise<DemoPane> {
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const reports = await installHooks({ home, agents: ['claude'], agentVersions: { claude: '2.1.80' } });
  expect(reports.find((r) => r.error)).toBeUndefined();
  const promptLog = join(root, 'turns.jsonl');
  const echoLog = join(root, 'echo.log');
  writeFileSync(promptLog, '');
  writeFileSync(echoLog, '');
  const view = await host.createPane({
    argv: [process.execPath, demoAgentPath()],
    cwd: home,
    env: {
      HOME: home,
      ORCA_DEMO_PROMPT_LOG: promptLog,
      ORCA_DEMO_ECHO_LOG: echoLog,
      ORCA_DEMO_TOOL: env.tool ?? 'never',
      ORCA_DEMO_REPLY_MS: String(env.replyMs ?? 300),
    },
  });
  await until('the demo agent idle at its prompt', () => {
    const v = host.showPane(view.handle);
    return v.isRunningAgent && v.status === 'idle';
  });
  return {
    handle: view.handle,
    turns: () =>
      readFileSync(promptLog, 'utf8')
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => (JSON.parse(l) as { prompt: string }).prompt),
    echo: () => readFileSync(echoLog, 'utf8'),
  };
}
