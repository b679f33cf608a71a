import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installHooks } from '../src/agent-hooks/install-hooks.ts';
import { demoAgentPath } from '../src/demo/demo-agent-path.ts';

/** A `claude` command that is the demo agent (Claude's hook dialect; `--resume ID` continues ID), with hooks installed. */
export interface DemoClaude {
  /** The `claude` executable. */
  readonly claude: string;
  readonly home: string;
  /** One JSON line per user turn (`{prompt}`). */
  readonly turns: string;
  /** One JSON line per start (`{argv, sessionId}`). */
  readonly starts: string;
  /** The pane env that points the demo agent at its home and logs. */
  env(extra?: Record<string, string>): Record<string, string>;
}

/** Makes `root/bin/claude` (the demo agent) and `root/home` with the managed Claude hooks. */
export async function demoClaude(root: string): Promise<DemoClaude> {
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  mkdirSync(bin, { recursive: true });
  mkdirSync(home, { recursive: true });
  const claude = join(bin, 'claude');
  writeFileSync(claude, `#!/bin/sh\nexec '${process.execPath}' '${demoAgentPath()}' "$@"\n`);
  chmodSync(claude, 0o755);
  await installHooks({ home, agents: ['claude'], agentVersions: { claude: '2.1.80' } });
  const turns = join(root, 'turns.jsonl');
  const starts = join(root, 'starts.jsonl');
  return {
    claude,
    home,
    turns,
    starts,
    env: (extra = {}) => ({
      HOME: home,
      ORCA_DEMO_TOOL: 'never',
      ORCA_DEMO_REPLY_MS: '200',
      ORCA_DEMO_PROMPT_LOG: turns,
      ORCA_DEMO_START_LOG: starts,
      ...extra,
    }),
  };
}
