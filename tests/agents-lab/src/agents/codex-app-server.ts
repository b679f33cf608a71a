import { spawn } from 'node:child_process';
import { APP_SERVER_TIMEOUT_MS } from '../limits.ts';

/** One hook as `codex app-server` reports it (`hooks/list`). */
export interface CodexListedHook {
  readonly key: string;
  readonly eventName: string;
  readonly command: string;
  readonly currentHash: string;
  readonly trustStatus: 'managed' | 'untrusted' | 'trusted' | 'modified' | string;
}

/**
 * Asks the real Codex which hooks it would run and whether it trusts them: spawns `codex
 * app-server` (JSON-RPC, one JSON object per line on stdio), sends `initialize`, `initialized`,
 * then `hooks/list` for `cwd`, and stops the server. `argv` is the command that runs Codex.
 */
export async function listCodexHooks(
  argv: readonly [string, ...string[]],
  env: Readonly<Record<string, string>>,
  cwd: string,
): Promise<CodexListedHook[]> {
  const [file, ...args] = argv;
  const child = spawn(file, [...args, 'app-server'], { env: { ...env }, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map<number, (msg: Record<string, unknown>) => void>();
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line === '') continue;
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      // Why: notifications arrive between responses; only ids we asked for settle a call.
      const settle = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
      if (settle && typeof msg.id === 'number') {
        pending.delete(msg.id);
        settle(msg);
      }
    }
  });
  let nextId = 0;
  const call = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(
        () => reject(new Error(`codex app-server: no answer to ${method}`)),
        APP_SERVER_TIMEOUT_MS,
      );
      pending.set(id, (msg) => {
        clearTimeout(timer);
        if (msg.error) reject(new Error(`codex app-server ${method}: ${JSON.stringify(msg.error)}`));
        else resolve(msg);
      });
      child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  try {
    await call('initialize', {
      clientInfo: { name: 'orca-agents-lab', title: null, version: '0.0.0' },
      capabilities: null,
    });
    child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
    const listed = await call('hooks/list', { cwds: [cwd] });
    const data = (listed.result as { data?: { hooks?: CodexListedHook[] }[] } | undefined)?.data ?? [];
    return data.flatMap((d) => d.hooks ?? []);
  } finally {
    child.kill('SIGKILL');
  }
}
