import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir, writeText } from '../../test/support.ts';
import { CLI_EXIT, runCli } from './run-cli.ts';

async function cli(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    readStdin: async () => stdin,
    env: { PATH: process.env.PATH ?? '' },
  });
  return { code, out, err };
}

const issue = z.object({
  code: z.string(),
  file: z.string(),
  path: z.string(),
  message: z.string(),
  line: z.number().optional(),
  column: z.number().optional(),
});
const listSchema = z.strictObject({
  hooks: z.array(
    z.strictObject({
      id: z.string(),
      dialect: z.enum(['claude', 'cursor', 'orca']),
      event: z.string(),
      wireEvent: z.string(),
      command: z.string(),
      source: z.string(),
      timeoutMs: z.number(),
    }),
  ),
  warnings: z.array(issue),
  errors: z.array(issue),
});
const runRecord = z.object({
  kind: z.literal('run'),
  event: z.string(),
  hookId: z.string(),
  stdin: z.string(),
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number().nullable(),
  parseOk: z.boolean(),
  failed: z.boolean(),
  durationMs: z.number(),
  decision: z.record(z.string(), z.unknown()),
});
const dryRunSchema = z.strictObject({
  event: z.string(),
  outcome: z.record(z.string(), z.unknown()).nullable(),
  asyncOutcomes: z.array(z.object({ hookId: z.string(), outcome: z.record(z.string(), z.unknown()) })),
  records: z.array(z.union([runRecord, z.object({ kind: z.literal('dropped') })])),
  warnings: z.array(issue),
  errors: z.array(issue),
});

function fixtureRoot(): { root: string; home: string } {
  const root = tempDir();
  const home = path.join(root, 'home');
  writeText(
    root,
    '.claude/settings.json',
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }; exit 0` }],
          },
        ],
        Notification: [],
      },
    }),
  );
  writeText(
    root,
    '.cursor/hooks.json',
    JSON.stringify({ hooks: { stop: [{ command: `cat >/dev/null; echo '{"followup_message":"again"}'` }] } }),
  );
  return { root, home };
}

describe('orca-command-hooks CLI', () => {
  it('list --json prints hooks, warnings and errors (validated by zod)', async () => {
    const { root, home } = fixtureRoot();
    const r = await cli(['list', '--root', root, '--home', home, '--json']);
    expect(r.code).toBe(CLI_EXIT.ok);
    const parsed = listSchema.parse(JSON.parse(r.out));
    expect(parsed.hooks.map((h) => h.id)).toEqual([
      'claude:.claude/settings.json#/hooks/PreToolUse/0/hooks/0',
      'cursor:.cursor/hooks.json#/hooks/stop/0',
    ]);
    expect(parsed.warnings.map((w) => w.code)).toEqual(['unsupported-event']);
  });

  it('dry-run of a blocking event runs the hook for real and prints the merged outcome', async () => {
    const { root, home } = fixtureRoot();
    const r = await cli([
      'dry-run',
      '--root',
      root,
      '--home',
      home,
      '--event',
      'toolGate',
      '--payload',
      '{"toolName":"run_shell","input":{"command":"rm -rf /"}}',
      '--json',
    ]);
    expect(r.code).toBe(CLI_EXIT.ok);
    const parsed = dryRunSchema.parse(JSON.parse(r.out));
    expect(parsed.outcome).toEqual({ decision: 'deny', agentMessage: 'no rm -rf', runs: 1, failedRuns: 0 });
    expect(parsed.records).toHaveLength(1);
  });

  it('dry-run of a detached event awaits it and prints async outcomes; payload from stdin', async () => {
    const { root, home } = fixtureRoot();
    const r = await cli(
      ['dry-run', '--root', root, '--home', home, '--event', 'stop', '--payload', '-', '--json'],
      '{"status":"completed"}',
    );
    const parsed = dryRunSchema.parse(JSON.parse(r.out));
    expect({
      code: r.code,
      outcome: parsed.outcome,
      asyncOutcomes: parsed.asyncOutcomes.map((a) => a.outcome),
    }).toEqual({
      code: 0,
      outcome: null,
      asyncOutcomes: [{ queueMessage: { text: 'again', sendNow: false } }],
    });
  });

  it('human mode prints one line per run then the outcome; @FILE payloads', async () => {
    const { root, home } = fixtureRoot();
    const file = writeText(root, 'payload.json', '{"toolName":"run_shell","input":{"command":"ls"}}');
    const r = await cli([
      'dry-run',
      '--root',
      root,
      '--home',
      home,
      '--event',
      'toolGate',
      '--payload',
      `@${file}`,
      '--policy',
      'strict',
    ]);
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toMatch(
      /^claude PreToolUse claude:\.claude\/settings\.json#\/hooks\/PreToolUse\/0\/hooks\/0 exit=0 \d+ms parseOk=true → no decision$/,
    );
    expect(lines[1]).toBe('outcome: {"runs":1,"failedRuns":0}');
  });

  it('exit 1 on config errors (hooks still run); exit 2 on usage errors and invalid payloads', async () => {
    const { root, home } = fixtureRoot();
    writeText(root, '.orca/hooks.json', '{ nope');
    const withErrors = await cli([
      'dry-run',
      '--root',
      root,
      '--home',
      home,
      '--event',
      'toolGate',
      '--payload',
      '{"toolName":"run_shell","input":{"command":"rm -rf x"}}',
      '--json',
    ]);
    expect(withErrors.code).toBe(CLI_EXIT.configErrors);
    expect(dryRunSchema.parse(JSON.parse(withErrors.out)).outcome).toMatchObject({ decision: 'deny' });
    const badPayload = await cli([
      'dry-run',
      '--root',
      root,
      '--event',
      'toolGate',
      '--payload',
      '{"toolName":3,"input":{}}',
    ]);
    expect({ code: badPayload.code, err: badPayload.err }).toEqual({
      code: CLI_EXIT.usage,
      err: 'orca-command-hooks: invalid toolGate payload /toolName: expected string, got 3\n',
    });
    expect((await cli(['dry-run', '--root', root, '--event', 'nope', '--payload', '{}'])).code).toBe(CLI_EXIT.usage);
    expect((await cli(['dry-run', '--root', root, '--event', 'stop', '--payload', '{bad'])).code).toBe(CLI_EXIT.usage);
    expect((await cli(['frobnicate'])).code).toBe(CLI_EXIT.usage);
    expect((await cli(['dry-run', '--root', root])).code).toBe(CLI_EXIT.usage);
    expect((await cli(['--help'])).code).toBe(CLI_EXIT.ok);
    expect((await cli(['dry-run', '--help'])).code).toBe(CLI_EXIT.ok);
  });
});
