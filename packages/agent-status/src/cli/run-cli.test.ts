import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, nodeIo, runCli } from './run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'orca-status-cli-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

async function cli(argv: string[], stdin = '') {
  let out = '';
  let err = '';
  const io: CliIo = {
    ...nodeIo,
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    readStdin: async () => stdin,
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}

const MENU = 'Run this command?\n  → Run (once) (y)\n    Skip (esc or n)\n';

describe('orca-status classify', () => {
  it('prints one plain line', async () => {
    expect(await cli(['classify', '--tail', file('m.txt', MENU), '--wait-blocked-at', '1700'])).toEqual({
      code: 0,
      out: 'permission running prompt-text agent-approval-prompt since=1700\n',
      err: '',
    });
  });

  it('reads the tail from stdin with -', async () => {
    expect(await cli(['classify', '--tail', '-', '--json'], MENU)).toEqual({
      code: 0,
      out: '{"status":"permission","isRunningAgent":true,"agentWait":{"source":"prompt-text","reason":"agent-approval-prompt"}}\n',
      err: '',
    });
  });

  it('omits agentWait when not evaluated and prints null when nothing waits', async () => {
    const tail = file('e.txt', 'hello\n');
    expect((await cli(['classify', '--tail', tail, '--json', '--exited'])).out).toBe(
      '{"status":null,"isRunningAgent":false}\n',
    );
    expect((await cli(['classify', '--tail', tail, '--json'])).out).toBe(
      '{"status":null,"isRunningAgent":false,"agentWait":null}\n',
    );
    expect((await cli(['classify', '--tail', tail])).out).toBe('none not-running no-wait\n');
    expect((await cli(['classify', '--tail', tail, '--exited'])).out).toBe('none not-running wait-unevaluated\n');
  });

  it('--now defaults to the largest time given', async () => {
    const rows = file(
      'r.json',
      JSON.stringify([{ state: 'working', receivedAt: 5000, stateStartedAt: 5000, source: 'codex', via: 'hook' }]),
    );
    const tail = file('t.txt', '');
    expect((await cli(['classify', '--tail', tail, '--rows', rows, '--json'])).out).toBe(
      '{"status":"working","isRunningAgent":true,"agentWait":null}\n',
    );
    // explicit --now far in the future makes the row stale
    expect((await cli(['classify', '--tail', tail, '--rows', rows, '--now', '99999999', '--json'])).out).toBe(
      '{"status":null,"isRunningAgent":false,"agentWait":null}\n',
    );
  });

  it('--all adds tuiIdle and the inject guard', async () => {
    expect((await cli(['classify', '--tail', file('a.txt', MENU), '--all'])).out).toBe(
      'permission running prompt-text agent-approval-prompt tui-idle=blocked guard=agent_prompt_blocked\n',
    );
  });

  it.each([
    [['classify'], "orca-status: required option '--tail <file>' not specified\n"],
    [
      ['classify', '--tail', join(dir, 'missing.txt')],
      `orca-status: --tail: cannot read ${join(dir, 'missing.txt')} (ENOENT)\n`,
    ],
    [['classify', '--tail', '-', '--now', 'soon'], 'orca-status: --now: expected milliseconds, got "soon"\n'],
    [
      ['classify', '--tail', '-', '--rows', '-'],
      'orca-status: --rows: expected a JSON array of status rows, got invalid JSON\n',
    ],
    [['classify', '--tail', '-', '--bogus'], "orca-status: unknown option '--bogus'\n"],
    [['frobnicate'], "orca-status: unknown command 'frobnicate'\n"],
  ])('exits 2 with one stderr line: %j', async (argv, err) => {
    expect(await cli(argv, 'not json')).toEqual({ code: 2, out: '', err });
  });
});

describe('orca-status title', () => {
  it('prints the class', async () => {
    expect(await cli(['title', '✳ Claude Code', '--json'])).toEqual({
      code: 0,
      out: '{"status":"idle","agent":"claude","kind":"explicit"}\n',
      err: '',
    });
    expect((await cli(['title', 'bash'])).out).toBe('none none shell\n');
  });
});
