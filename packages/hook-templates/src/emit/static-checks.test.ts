import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/fixtures.ts';
import { powershellErrors } from '../../test/support/pwsh-grammar.ts';
import { findBinary } from '../../test/support/shells.ts';
import { AGENTS } from '../agents/registry.ts';
import { AGENT_IDS } from '../agents/sources.ts';
import { installAgent } from '../install/install.ts';
import { launcherCommand } from '../launchers/for-agent.ts';
import { decodeEncodedCommand } from '../launchers/powershell.ts';
import { LAUNCHER_FORMS } from '../launchers/spec.ts';
import { planFor } from '../plan/plan-for.ts';
import { BATCH_DRAIN_LABEL } from './batch.ts';
import { emitScript } from './script.ts';

const shellcheck = findBinary('shellcheck');

function allPosixTexts(): [string, string][] {
  const out: [string, string][] = [];
  for (const agent of AGENT_IDS) {
    out.push([`${agent}.posix.sh`, emitScript(planFor(agent, { os: 'posix', dialect: 'sh' }))]);
    out.push([`${agent}.gitbash.sh`, emitScript(planFor(agent, { os: 'windows', dialect: 'sh' }))]);
    for (const event of AGENTS[agent].events) {
      for (const form of ['posixGuarded', 'posixReadable', 'runtimeHome'] as const) {
        const { command } = launcherCommand({
          agent,
          platform: 'posix',
          script: "/h o/m'e/$x/`y`/\\z/.orca/agent-hooks/a.sh",
          event,
          form,
        });
        out.push([`${agent}.${event}.${form}.launcher.sh`, `#!/bin/sh\n${command}\n`]);
      }
    }
  }
  return out;
}

describe('shellcheck -s sh', () => {
  it.skipIf(!shellcheck)('is silent on every emitted POSIX script and launcher', () => {
    const dir = tempDir();
    const files = allPosixTexts().map(([name, text]) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    });
    let output = '';
    try {
      output = execFileSync(shellcheck ?? 'shellcheck', ['-s', 'sh', '-f', 'gcc', ...files], { encoding: 'utf8' });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(output).toBe('');
  });
  if (!shellcheck) console.warn('[hook-templates] shellcheck not installed: skipping (CI installs it)');
});

describe('PowerShell (grammar + structure)', () => {
  it('every generated .ps1 parses without error or missing nodes and keeps the contract order', async () => {
    for (const agent of AGENT_IDS) {
      const text = emitScript(planFor(agent, { os: 'windows', dialect: 'pwsh' }));
      expect({ agent, errors: await powershellErrors(text) }).toEqual({ agent, errors: [] });
      expect(text.endsWith('\r\n') && !/[^\r]\n/.test(text)).toBe(true);
      const guard = text.indexOf('-not $env:ORCA_AGENT_HOOK_PORT');
      const read = text.indexOf('[Console]::OpenStandardInput()');
      expect(guard).toBeGreaterThan(-1);
      expect(read).toBeGreaterThan(guard);
      expect(text).not.toMatch(/Invoke-Expression|iex |\. \$|ConvertFrom-Json/);
    }
  });

  it('every encoded command decodes exactly and parses; no %, ^ or space outside base64 bar the argv separators', async () => {
    const scripts = ['C:\\Users\\a b\\.orca\\agent-hooks\\x.cmd', "C:\\it's\\%P%\\^!\\x.ps1"];
    for (const agent of AGENT_IDS) {
      for (const script of scripts) {
        for (const event of [undefined, ...AGENTS[agent].events.slice(0, 2)]) {
          const { command } = launcherCommand({
            agent,
            platform: 'windows',
            script,
            form: 'encodedPowerShell',
            ...(event ? { event } : {}),
          });
          const body = decodeEncodedCommand(command);
          expect(body).not.toBeNull();
          expect(await powershellErrors(body ?? '')).toEqual([]);
          expect(body).toContain(`'${script.replaceAll("'", "''")}'`);
          expect(command.split(' -EncodedCommand ')[0]).not.toMatch(/[%^]/);
          expect(command.split(' ').length).toBe(8);
        }
      }
    }
  });

  it('decodes any script exactly (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (path) => {
        if (/[\0\r\n]/.test(path) || path === '') return;
        const { command } = launcherCommand({
          agent: 'copilot',
          platform: 'windows',
          script: path,
          form: 'encodedPowerShell',
        });
        expect(decodeEncodedCommand(command)).toContain(`-LiteralPath '${path.replaceAll("'", "''")}'`);
      }),
    );
  });
});

describe('batch structure', () => {
  it.each(AGENT_IDS)('%s: CRLF, DisableDelayedExpansion, guards exit unread, one drain epilogue', (agent) => {
    const text = emitScript(planFor(agent, { os: 'windows', dialect: 'batch' }));
    const lines = text.split('\r\n');
    expect(text.endsWith('\r\n') && !/[^\r]\n/.test(text)).toBe(true);
    expect(lines.slice(0, 2)).toEqual(['@echo off', 'setlocal DisableDelayedExpansion']);
    for (const k of ['ORCA_AGENT_HOOK_PORT', 'ORCA_AGENT_HOOK_TOKEN', 'ORCA_PANE_KEY'])
      expect(lines).toContain(`if "%${k}%"=="" exit /b 0`);
    expect(text).not.toMatch(/ORCA_[A-Z_]*%?"?[^\r\n]*goto[^\r\n]*drain/);
    expect(lines.slice(-4)).toEqual([
      BATCH_DRAIN_LABEL,
      '"%SystemRoot%\\System32\\more.com" >nul 2>nul',
      'exit /b 0',
      '',
    ]);
    expect(text).toContain('"%SystemRoot%\\System32\\curl.exe" -q -f -sS -X POST');
    expect(text).toMatch(/--data-urlencode "payload@-" >nul 2>nul/);
    expect(text).not.toMatch(/powershell|call [^:]|-T -|!ORCA/i);
    expect(text).not.toContain(':~');
    for (const skip of AGENTS[agent].skips) {
      expect(lines).toContain(`if defined ${skip.env} ${skip.holdsStdin ? 'exit /b 0' : `goto ${BATCH_DRAIN_LABEL}`}`);
    }
  });

  it('launcher forms list is the spec list', () => {
    expect([...LAUNCHER_FORMS]).toEqual([
      'posixGuarded',
      'posixReadable',
      'runtimeHome',
      'encodedPowerShell',
      'cmdFastPath',
      'windowsDirect',
    ]);
  });

  it('Windows installs emit only parseable PowerShell in configs (decoded)', async () => {
    for (const agent of AGENT_IDS) {
      const r = installAgent({ agent, os: 'windows', home: 'C:\\Users\\u', configs: {} });
      const config = r.files.at(-1)?.content ?? '';
      const commands = [...config.matchAll(/-EncodedCommand ([A-Za-z0-9+/=]+)/g)].map((m) => m[1] ?? '');
      for (const b64 of commands) {
        const body = Buffer.from(b64, 'base64').toString('utf16le');
        expect(await powershellErrors(body)).toEqual([]);
      }
    }
  });
});
