import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ListenerTarget, startListenerTarget, storedMarkers } from './listener-attack-host.ts';
import { runOrca, tempRoot } from './real-host.ts';

let target: ListenerTarget | undefined;
afterEach(async () => {
  await target?.host.stop();
  target = undefined;
});

describe('attack: a CRLF in ORCA_AGENT_HOOK_TOKEN injects a header into the hook script’s curl request', () => {
  it('the installed codex hook script (real sh, real curl) sends nothing for a malformed token; the exact token is stored', async () => {
    target = await startListenerTarget();
    const home = tempRoot('orca-hostile-token-home-');
    const install = await runOrca([
      '--data-dir',
      target.dataDir,
      'hooks',
      'install',
      '--home',
      home,
      '--agents',
      'codex',
    ]);
    expect(install.code).toBe(0);
    const script = join(home, '.orca', 'agent-hooks', 'codex-hook.sh');
    expect(existsSync(script)).toBe(true);
    const fire = (token: string, marker: string) =>
      spawnSync('/bin/sh', [script], {
        input: JSON.stringify({ hook_event_name: 'Notification', marker }),
        env: {
          PATH: '/usr/local/bin:/usr/bin:/bin',
          HOME: home,
          ORCA_AGENT_HOOK_PORT: String(target?.port),
          ORCA_AGENT_HOOK_TOKEN: token,
          ORCA_PANE_KEY: target?.paneKey ?? '',
          ORCA_AGENT_HOOK_ENV: 'local',
          ORCA_AGENT_HOOK_VERSION: '2',
        },
        encoding: 'utf8',
      });
    const attacks: [string, string][] = [
      ['crlf', `${target.token}\r\nX-Injected: 1`],
      ['crlf-second-token', `${target.token}\r\nX-Orca-Agent-Hook-Token: ${target.token}`],
      ['trailing-space', `${target.token} `],
      ['semicolon', `${target.token};x`],
    ];
    const runs = attacks.map(([marker, token]) => ({ marker, r: fire(token, marker) }));
    const control = fire(target.token, 'control');
    const markers = await storedMarkers(target);
    target = undefined;
    console.log(
      `script runs: ${JSON.stringify(runs.map(({ marker, r }) => [marker, r.status, r.stdout.trim()]))}; stored markers: ${JSON.stringify(markers)}`,
    );
    for (const { r } of [...runs, { r: control }]) {
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        status: 0,
        stdout: '{}\n',
        stderr: '',
      });
    }
    expect(markers).toEqual(['control']);
  }, 120_000);
});
