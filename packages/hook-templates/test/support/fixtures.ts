import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_IDS, type AgentId } from '../../src/agents/sources.ts';
import { emitFor } from '../../src/emit/script.ts';
import type { Target } from '../../src/plan/types.ts';

/** A fresh private temp dir. */
export function tempDir(prefix = 'orca-ht-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes every agent's script for `target` into `dir` (0755); returns agent → path. */
export function writeScripts(dir: string, target: Target = { os: 'posix', dialect: 'sh' }): Record<AgentId, string> {
  const out = {} as Record<AgentId, string>;
  for (const agent of AGENT_IDS) {
    const path = join(dir, `${agent}-${target.os}-hook.sh`);
    writeFileSync(path, emitFor(agent, target), { mode: 0o755 });
    out[agent] = path;
  }
  return out;
}

/** A JSON hook payload of about `size` bytes wrapping `text` (no trailing newline). */
export function jsonPayload(size: number, text = '', event = 'Stop'): string {
  const head = JSON.stringify({ hook_event_name: event, text });
  const pad = Math.max(0, size - head.length - 12);
  return `${head.slice(0, -1)},"pad":"${'x'.repeat(pad)}"}`;
}

/** Shell and cmd metacharacters, quotes, CRLF, astral and multi-byte UTF-8. */
export const HOSTILE_TEXT = `it's "quoted" $(touch /tmp/orca-canary) \`id\` %PATH% !x! ^& | ; < > \\ \\n \r\n tab\t é ü 漢字 😀 𝄞 $HOME \${X} ~ * ? [a] #`;

const tempHome = tempDir('orca-ht-home-');

/** Every env var whose presence a test controls, stripped from inherited envs. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: tempHome, LANG: 'C.UTF-8' };
  return { ...base, ...extra };
}
