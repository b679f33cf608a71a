import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cmdlineToText,
  createForegroundReader,
  readForegroundCommand,
  readForegroundCommandSync,
  readForegroundGroup,
  tpgidFromStat,
} from './foreground-probe.ts';
import { spawnPaneProcess } from './pane-process.ts';

/** An interactive shell in a real PTY (its jobs get their own process group). */
const interactiveShell = () =>
  spawnPaneProcess({
    file: '/bin/sh',
    args: ['-i'],
    cwd: '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    cols: 80,
    rows: 24,
  });

describe('tpgidFromStat', () => {
  it('reads field 8 even when the command name holds spaces and parentheses', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.integer({ min: 1, max: 4_000_000 }), (comm, tpgid) => {
        const stat = `123 (${comm}) S 1 123 123 34816 ${tpgid} 4194560 0 0`;
        expect(tpgidFromStat(stat)).toBe(tpgid);
      }),
    );
  });
  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = tpgidFromStat(text);
        expect(result === null || (Number.isInteger(result) && result > 0)).toBe(true);
      }),
    );
  });
  it('treats a negative or missing tpgid as unreadable', () => {
    expect(tpgidFromStat('1 (sh) S 0 1 1 0 -1 0')).toBeNull();
    expect(tpgidFromStat('garbage')).toBeNull();
  });
});

describe('cmdlineToText', () => {
  it('joins argv with single spaces and drops the trailing NUL', () => {
    expect(cmdlineToText('node\0/usr/bin/claude\0--x\0')).toBe('node /usr/bin/claude --x');
    expect(cmdlineToText('')).toBeNull();
  });
});

describe('readForegroundCommand', () => {
  it.skipIf(process.platform !== 'linux')('reports the foreground job of a real PTY, not its shell', async () => {
    const pane = interactiveShell();
    pane.write('sleep 30\r');
    try {
      let seen: string | null = null;
      for (let i = 0; i < 100 && seen !== 'sleep 30'; i += 1) {
        seen = await readForegroundCommand(pane.pid);
        if (seen !== 'sleep 30') await new Promise((r) => setTimeout(r, 20));
      }
      expect(seen).toBe('sleep 30');
    } finally {
      pane.kill();
    }
    expect(await readForegroundCommand(2 ** 22 + 7)).toBeNull();
  });
});

describe('createForegroundReader', () => {
  it.skipIf(process.platform !== 'linux')(
    'answers as the one-shot reads do while the foreground changes (job, exec, back to the shell), null once the PTY is gone',
    async () => {
      const pane = interactiveShell();
      const gone = new Promise<void>((resolve) => pane.onExit(() => resolve()));
      const reader = createForegroundReader(pane.pid);
      const settle = async (want: (cmd: string | null) => boolean): Promise<string | null> => {
        for (let i = 0; i < 200; i += 1) {
          const seen = reader.command();
          if (want(seen)) return seen;
          await new Promise((r) => setTimeout(r, 20));
        }
        return reader.command();
      };
      const same = () => {
        expect(reader.group()).toBe(readForegroundGroup(pane.pid));
        expect(reader.command()).toBe(readForegroundCommandSync(pane.pid));
      };
      try {
        expect(await settle((c) => c === '/bin/sh -i')).toBe('/bin/sh -i');
        same();
        // a job in front: a new group, so a new cmdline descriptor
        pane.write('sleep 30\r');
        expect(await settle((c) => c === 'sleep 30')).toBe('sleep 30');
        same();
        // the job ends: the shell's group again, its descriptor reopened
        pane.write('\x03');
        expect(await settle((c) => c === '/bin/sh -i')).toBe('/bin/sh -i');
        // the group leader execs: same pid and group, a new command line read through the kept descriptor
        pane.write('exec sleep 31\r');
        expect(await settle((c) => c === 'sleep 31')).toBe('sleep 31');
        same();
      } finally {
        pane.kill('SIGKILL');
      }
      await gone;
      expect(await settle((c) => c === null)).toBeNull();
      expect(reader.group()).toBeNull();
      reader.close();
      reader.close();
    },
  );
});
