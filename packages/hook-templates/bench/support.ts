import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_IDS, type AgentId } from '../src/agents/sources.ts';
import { BOUNDED_READER_PY_FLAGS } from '../src/emit/posix-reader.ts';
import { emitScript } from '../src/emit/script.ts';
import { planFor } from '../src/plan/plan-for.ts';

/** Shell the ratios are judged under. */
export const BENCH_SHELL = '/bin/sh';

/** The steps of `agent`'s POSIX plan. */
function stepsOf(agent: AgentId): readonly string[] {
  return planFor(agent, { os: 'posix', dialect: 'sh' }).steps.map((s) =>
    s.op === 'captureStdin' && s.policy === 'firstJsonValue' ? 'boundedRead' : s.op,
  );
}

/** The transport `agent`'s POSIX script posts on when the host offers raw-json-v1. */
export function postTransportOf(agent: AgentId): 'form' | 'raw-json-v1' {
  const post = planFor(agent, { os: 'posix', dialect: 'sh' }).steps.find((s) => s.op === 'post');
  return post?.op === 'post' ? post.transport : 'form';
}

/**
 * The floor of a bounded read: the reader program started (with the script's own interpreter flags,
 * so a faster start counts for both sides) and reading stdin to its end, nothing else.
 */
const BOUNDED_READ = `python3 ${BOUNDED_READER_PY_FLAGS} -c 'import os, sys; sys.stdout.buffer.write(sys.stdin.buffer.read())'`;

/**
 * The floor of recovering the hook env from ancestors (an agent that strips it): each ancestor's
 * environ read once (one \`tr\` per hop, at most 8 hops) and its parent taken from its stat line.
 */
const RECOVER_ENV = [
  'p=$PPID; n=0',
  'while [ "$n" -lt 8 ] && [ "$p" -gt 1 ]; do',
  `  e=$(tr '\\000' '\\n' <"/proc/$p/environ" 2>/dev/null)`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a template
  '  IFS= read -r s <"/proc/$p/stat"; s=${s##*) }; s=${s#* }; p=${s%% *}; n=$((n + 1))',
  'done',
].join('\n');

/**
 * The least a shell script must do for `agent` before it can post, as shell source: capture stdin
 * (through a reader program when the agent may hold stdin open), recover the env from ancestors
 * when the agent strips it. `null`: plain \`cat\` capture and nothing else (no floor beyond it).
 */
export function scriptFloor(agent: AgentId): { capture: string; extra: string } | null {
  const steps = stepsOf(agent);
  const bounded = steps.includes('boundedRead');
  const recover = steps.includes('recoverEnv');
  if (!bounded && !recover) return null;
  return { capture: bounded ? BOUNDED_READ : 'cat', extra: recover ? RECOVER_ENV : ':' };
}

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
