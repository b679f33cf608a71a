import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_IDS, type AgentId } from '../src/agents/sources.ts';
import { emitScript } from '../src/emit/script.ts';
import { planFor } from '../src/plan/plan-for.ts';

/** Shell the ratios are judged under. */
export const BENCH_SHELL = '/bin/sh';

/** Writes every agent's POSIX script into a fresh dir. */
export function benchScripts(): { dir: string; scripts: Record<AgentId, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'hooktpl-bench-'));
  const scripts = {} as Record<AgentId, string>;
  for (const agent of AGENT_IDS) {
    const p = join(dir, `${agent}-hook.sh`);
    writeFileSync(p, emitScript(planFor(agent, { os: 'posix', dialect: 'sh' })));
    chmodSync(p, 0o755);
    scripts[agent] = p;
  }
  return { dir, scripts };
}

/** Runs argv with `input` written in one go; resolves when it exits. */
export function run(argv: readonly string[], input: Buffer, env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd ?? 'false', args, { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => resolve(code));
    child.stdin.end(input);
  });
}

/** A JSON payload of exactly `size` bytes. */
export function payloadOf(size: number): Buffer {
  const head = '{"hook_event_name":"Stop","pad":"';
  return Buffer.from(`${head}${'x'.repeat(size - head.length - 2)}"}`);
}
