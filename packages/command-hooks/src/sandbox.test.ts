import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hook, POLICIES, shq, tempDir, testRunner } from '../test/support.ts';
import type { SandboxRuntime } from './sandbox.ts';
import { createBwrapSandbox, probeBwrap } from './sandbox-bwrap.ts';

interface FakeOptions {
  enabled?: boolean;
  violations?: number;
  prepare?: 'ok' | 'throws' | 'hangs';
}

/** A fake sandbox runtime (the one thing tests may fake): it launches the raw shell. */
function fakeSandbox(o: FakeOptions = {}): SandboxRuntime & { prepared: number; released: number } {
  const rt = {
    name: 'fake',
    prepared: 0,
    released: 0,
    enabled: () => o.enabled ?? true,
    prepare: async ({ command }: { command: string }) => {
      rt.prepared++;
      if (o.prepare === 'throws') throw new Error('no profile');
      if (o.prepare === 'hangs') await new Promise(() => {});
      return { file: '/bin/sh', args: ['-c', command] };
    },
    violations: () => o.violations ?? 0,
    release: () => {
      rt.released++;
    },
  };
  return rt;
}

const ALLOW = `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`;
const gate = { toolName: 'run_shell', input: { command: 'ls' } };

describe('sandbox escalation (fake runtime)', () => {
  for (const policy of POLICIES) {
    describe(`policy ${policy}`, () => {
      it('disabled runtime or sandbox:false → raw spawn, untouched outcome', async () => {
        for (const [sandbox, flag] of [
          [fakeSandbox({ enabled: false }), undefined],
          [fakeSandbox({ violations: 3 }), false],
        ] as const) {
          const t = testRunner({ hooks: [], sandbox, failurePolicy: policy });
          const r = await t.runner.run(
            hook({
              dialect: 'claude',
              event: 'toolGate',
              wireEvent: 'PreToolUse',
              command: `${ALLOW}; exit 1`,
              ...(flag === false ? { sandbox: false } : {}),
            }),
            gate,
          );
          expect(sandbox.prepared).toBe(0);
          expect(t.runs()[0]).toMatchObject({ sandboxed: false, sandboxViolations: 0, exitCode: 1 });
          expect(t.runs()[0]?.decision.sandboxBlocked).toBeUndefined();
          expect(r.failed).toBe(true);
        }
      });

      const matrix: [number, number, boolean][] = [
        [0, 0, false],
        [0, 3, false],
        [1, 0, false],
        [1, 2, true],
        [2, 1, true],
      ];
      for (const [exit, violations, blocked] of matrix) {
        it(`exit ${exit} with ${violations} violation(s) → ${blocked ? 'blocked' : 'not blocked'}`, async () => {
          const sandbox = fakeSandbox({ violations });
          const t = testRunner({ hooks: [], sandbox, failurePolicy: policy });
          const command = `${ALLOW}; exit ${exit}`;
          const r = await t.runner.run(
            hook({ dialect: 'claude', event: 'toolGate', wireEvent: 'PreToolUse', command }),
            gate,
          );
          const [rec] = t.runs();
          expect({ sandboxed: rec?.sandboxed, violations: rec?.sandboxViolations, released: sandbox.released }).toEqual(
            { sandboxed: true, violations, released: 1 },
          );
          if (blocked) {
            // A printed allow never survives a block.
            expect(rec?.runtimeError).toBe(`blocked by the project sandbox (${violations} violation(s); exit ${exit})`);
            expect(rec?.decision).toEqual({
              sandboxBlocked: true,
              ...(policy === 'strict' ? { permission: 'deny', agentMessageChars: expect.any(Number) } : {}),
            });
            expect(r).toEqual(
              policy === 'strict'
                ? {
                    outcome: {
                      decision: 'deny',
                      agentMessage: `hook "${command}" ${rec?.runtimeError} — blocked by failClosed`,
                    },
                    failed: true,
                    failureMode: 'closed',
                  }
                : { outcome: null, failed: true, failureMode: 'open' },
            );
          } else if (exit === 0) {
            expect(r).toEqual({ outcome: { decision: 'allow' }, failed: false });
          } else {
            expect(rec?.runtimeError).toBe(`exited with code ${exit}`);
          }
        });
      }

      it('blocked async run drops its queueMessage and sessionEnv', async () => {
        const t = testRunner({ hooks: [], sandbox: fakeSandbox({ violations: 1 }), failurePolicy: policy });
        const r = await t.runner.run(
          hook({
            dialect: 'cursor',
            event: 'sessionStart',
            wireEvent: 'sessionStart',
            command: `cat >/dev/null; echo '{"env":{"A":"1"}}'; exit 1`,
          }),
          {},
        );
        expect(r.outcome).toBeNull();
        expect(t.runs()[0]?.decision).toEqual({ sandboxBlocked: true });
      });

      for (const mode of ['throws', 'hangs'] as const) {
        it(`prepare ${mode} → spawnError, blocked, through the failure policy`, async () => {
          const t = testRunner({
            hooks: [],
            sandbox: fakeSandbox({ prepare: mode }),
            failurePolicy: policy,
            strictCount: false,
          });
          const h = hook({
            dialect: 'cursor',
            event: 'toolGate',
            wireEvent: 'preToolUse',
            command: ALLOW,
            timeoutMs: 300,
            onFailure: 'closed',
          });
          const r = await t.runner.run(h, gate);
          const [rec] = t.runs();
          expect(t.spawnCalls()).toBe(0);
          expect(rec?.spawnError).toMatch(
            mode === 'throws' ? /^sandbox fake: no profile$/ : /^sandbox fake: sandbox prepare timed out after 300ms$/,
          );
          expect(rec?.decision.sandboxBlocked).toBe(true);
          expect(r).toMatchObject({ failed: true, failureMode: 'closed', outcome: { decision: 'deny' } });
        });
      }
    });
  }
});

describe('bubblewrap runtime (real)', () => {
  const probe = probeBwrap();
  if (!probe.ok) console.log(`skipping real bwrap tests: ${probe.reason}`);
  it.skipIf(!probe.ok)('writes inside the root succeed, writes outside fail as the hook’s own exit', async () => {
    const root = tempDir();
    const outside = path.join(path.dirname(root), `outside-${path.basename(root)}`);
    const sandbox = createBwrapSandbox({ root });
    expect(sandbox.enabled()).toBe(true);
    const t = testRunner({ hooks: [], sandbox, baseEnv: { PATH: process.env.PATH ?? '' } });
    const inside = path.join(root, 'inside.txt');
    const write = (file: string) =>
      hook({ dialect: 'orca', event: 'stop', command: `cat >/dev/null; echo hi > ${shq(file)}`, cwd: root });
    const ok = await t.runner.run(write(inside), { status: 'completed' });
    expect(ok).toEqual({ outcome: null, failed: false });
    expect(readFileSync(inside, 'utf8')).toBe('hi\n');
    const denied = await t.runner.run(write('/var/tmp/orca-bwrap-should-not-exist'), { status: 'completed' });
    expect(denied.failed).toBe(true);
    expect(existsSync('/var/tmp/orca-bwrap-should-not-exist')).toBe(false);
    expect(existsSync(outside)).toBe(false);
    const [first, second] = t.runs();
    expect({
      a: first?.sandboxed,
      b: second?.sandboxed,
      err: second?.runtimeError,
      blocked: second?.decision.sandboxBlocked,
    }).toEqual({
      a: true,
      b: true,
      err: 'exited with code 2',
      blocked: undefined,
    });
  });

  it.skipIf(!probe.ok)('no network by default', async () => {
    const root = tempDir();
    const t = testRunner({
      hooks: [],
      sandbox: createBwrapSandbox({ root }),
      baseEnv: { PATH: process.env.PATH ?? '' },
    });
    await t.runner.run(
      hook({ dialect: 'orca', event: 'stop', command: 'cat >/dev/null; ip -o link show | wc -l', cwd: root }),
      { status: 'completed' },
    );
    expect(t.runs()[0]?.stdout.trim()).toBe('1');
  });

  it('a missing bwrap binary is disabled (raw spawn), never a crash', () => {
    const rt = createBwrapSandbox({ root: '/tmp', bwrapPath: '/nonexistent/bwrap' });
    expect(rt.enabled()).toBe(false);
    expect(probeBwrap({ bwrapPath: '/nonexistent/bwrap' })).toMatchObject({ ok: false });
  });
});
