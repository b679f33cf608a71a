import { describe, expect, it } from 'vitest';
import { type PaneExit, spawnPaneProcess } from './pane-process.ts';

describe('spawnPaneProcess', () => {
  it('runs a real PTY, passes input through and captures the exit code', async () => {
    const pane = spawnPaneProcess({
      file: '/bin/sh',
      args: ['-c', 'read line; echo "got:$line"; exit 7'],
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      cols: 80,
      rows: 24,
    });
    let output = '';
    pane.onData((d) => {
      output += d;
    });
    const exit = new Promise<PaneExit>((resolve) => pane.onExit(resolve));
    pane.write('abc\r');
    expect(await exit).toEqual({ code: 7, signal: null });
    // Why: node-pty may report the exit before the PTY's last bytes are read (seen on a loaded CI machine).
    for (let i = 0; i < 500 && !output.includes('got:abc'); i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(output).toContain('got:abc');
  });
});
