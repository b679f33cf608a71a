import { spawn } from 'node:child_process';

/** Run argv to completion; resolves with code, stdout and stderr. */
export function run(
  argv: readonly string[],
  opts: { input?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = argv;
    if (file === undefined) {
      reject(new Error('empty argv'));
      return;
    }
    const c = spawn(file, args, { env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => c.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    c.stdout.on('data', (b: Buffer) => {
      stdout += b.toString('utf8');
    });
    c.stderr.on('data', (b: Buffer) => {
      stderr += b.toString('utf8');
    });
    c.stdin.on('error', () => {});
    c.on('error', reject);
    c.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    c.stdin.end(opts.input ?? '');
  });
}

/** Whether a pid is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** curl argv posting a JSON hook envelope. */
export function curlHook(port: number, token: string, source: string, body: unknown): string[] {
  return [
    'curl',
    '-sS',
    '-f',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '--max-time',
    '5',
    '-H',
    `X-Orca-Agent-Hook-Token: ${token}`,
    '-H',
    'Content-Type: application/json',
    '--data-binary',
    JSON.stringify(body),
    `http://127.0.0.1:${port}/hook/${source}`,
  ];
}
