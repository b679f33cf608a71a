import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GUESTFS_METHODS, RELAY_EXIT_CODES, RELAY_METHODS } from './protocol.ts';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const methods: string[] = [...Object.values(RELAY_METHODS), ...Object.values(GUESTFS_METHODS)];
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A method name written as a string literal in any quote style, and any `guestfs.` literal.
const bareMethod = new RegExp(`(['"\`])(?:${methods.map(escapeRe).join('|')}|guestfs\\.[A-Za-z]+)\\1`);
const guestCodes = [RELAY_EXIT_CODES.staleInstall, RELAY_EXIT_CODES.noNode, RELAY_EXIT_CODES.netnsLoDown];
const bareExitCode = new RegExp(`(?<![\\w.])(?:${guestCodes.join('|')})(?![\\w.])`);

// Why: JSDoc and line comments may name a method in backquotes; only code lines are scanned.
const isComment = (line: string) => /^\s*(?:\/\/|\/\*|\*)/.test(line);

/** `file:line: text` of every code line of relay's non-test sources, protocol.ts aside, that matches `re`. */
function offenders(re: RegExp): string[] {
  return sourceFiles(srcDir)
    .filter((f) => relative(srcDir, f) !== 'protocol.ts')
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          !isComment(line) && re.test(line) ? [`${relative(srcDir, f)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
}

describe('protocol.ts is the only home of the relay names and guest exit codes', () => {
  it('finds the sources it scans (and the patterns match what they should)', () => {
    expect(sourceFiles(srcDir).some((f) => f.endsWith('guest-link.ts'))).toBe(true);
    expect(bareMethod.test(`channel.request('guestfs.home')`)).toBe(true);
    expect(bareMethod.test('notify("agent.hook", e)')).toBe(true);
    expect(bareMethod.test('onRequest(`agent_hook.requestReplay`)')).toBe(true);
    expect(bareMethod.test('notify(RELAY_METHODS.agentHook, e)')).toBe(false);
    expect(bareExitCode.test('  exit 43')).toBe(true);
    expect(bareExitCode.test('f.code === 42')).toBe(true);
    expect(bareExitCode.test('exit $' + '{RELAY_EXIT_CODES.noNode}')).toBe(false);
    expect(bareExitCode.test('0x42 1.44 420 x43')).toBe(false);
    expect(isComment(' * exit 42 when stale')).toBe(true);
    expect(isComment('  exit 42')).toBe(false);
  });

  it('no bare relay method literal outside protocol.ts', () => {
    expect(offenders(bareMethod)).toEqual([]);
  });

  it('no bare guest exit code (42/43/44) outside protocol.ts', () => {
    expect(offenders(bareExitCode)).toEqual([]);
  });

  it('method names are distinct and the guest exit codes are the documented ones', () => {
    expect(new Set(methods).size).toBe(methods.length);
    expect(guestCodes).toEqual([42, 43, 44]);
  });
});
