import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENT_IDS } from '../agents/sources.ts';
import { AGENT_VERSION_COMMANDS, detectAgentVersion, parseAgentVersion } from './agent-version.ts';
import { nodeVersionProbe } from './detect.ts';

describe('parseAgentVersion', () => {
  it.each([
    ['2.1.332 (Claude Code)\n', '2.1.332'],
    ['codex-cli 0.171.0\n', '0.171.0'],
    ['0.61.0', '0.61.0'],
    ['v1.2.3-beta.1', '1.2.3-beta.1'],
    ['no version here', null],
    ['1.2', null],
    ['GitHub Copilot CLI 1.0.102.\n', '1.0.102'],
    ['release 1.2.3-rc.1.', '1.2.3-rc.1'],
    ['1.2.3.4', null],
  ])('%j → %j', (out, want) => {
    expect(parseAgentVersion(out)).toBe(want);
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => parseAgentVersion(s) === null || typeof parseAgentVersion(s) === 'string'),
    );
  });
});

describe('detectAgentVersion', () => {
  it('every agent with hooks has a version command', () => {
    expect(AGENT_IDS.filter((a) => !(a in AGENT_VERSION_COMMANDS))).toEqual([]);
  });

  it('a probe that fails or throws gives null', async () => {
    expect(await detectAgentVersion('claude', async () => null)).toBeNull();
    expect(
      await detectAgentVersion('claude', async () => {
        throw new Error('boom');
      }),
    ).toBeNull();
    expect(await detectAgentVersion('nope', async () => '1.0.0')).toBeNull();
  });

  it('the real probe runs the command on PATH, and gives null when it is absent', async () => {
    const probe = nodeVersionProbe({ PATH: '/usr/bin:/bin' });
    expect(await probe(['sh', '-c', 'echo 9.8.7'])).toBe('9.8.7\n');
    expect(await probe(['orca-no-such-agent', '--version'])).toBeNull();
    expect(await nodeVersionProbe({ PATH: '/usr/bin:/bin' }, 200)(['sleep', '5'])).toBeNull();
  });
});
