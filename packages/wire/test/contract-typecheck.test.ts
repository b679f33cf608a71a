import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, 'typecheck-fixtures');

let program: ts.Program | undefined;

/**
 * The diagnostics `tsc` gives one fixture. Every fixture is compiled once, in one program, with
 * the package's own compiler options (they are excluded from its tsconfig, which must pass).
 */
function typecheck(fixture: string): { code: number; text: string }[] {
  if (!program) {
    const configPath = join(here, '..', 'tsconfig.json');
    const config = ts.readConfigFile(configPath, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
    const roots = readdirSync(fixtures).map((f) => join(fixtures, f));
    program = ts.createProgram(roots, { ...parsed.options, noEmit: true });
  }
  const file = program.getSourceFile(join(fixtures, fixture));
  if (!file) throw new Error(`no fixture ${fixture}`);
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => ({
    code: d.code,
    text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

describe('the runtime contract fails the typecheck of code that drifted from it', () => {
  it('the control fixture, spelt and read as the contract says, typechecks', () => {
    expect(typecheck('well-typed.ts')).toEqual([]);
  });

  it('a misspelt method name', () => {
    const errors = typecheck('misspelled-method.ts');
    expect(errors.map((e) => e.code)).toEqual([2345]);
    expect(errors[0]?.text).toContain('"terminal.lsit"');
  });

  it('a host handler whose result drifted from the contract', () => {
    const errors = typecheck('drifted-result.ts');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((e) => e.text).join('\n')).toMatch(/not assignable/);
  });

  it('a client reading a field the result does not have', () => {
    const errors = typecheck('client-reads-drifted-field.ts');
    expect(errors.map((e) => e.code)).toEqual([2339]);
    expect(errors[0]?.text).toContain("'workingDirectory'");
  });

  it('the board calling a method kept off browsers', () => {
    const errors = typecheck('browser-calls-owner-method.ts');
    expect(errors.map((e) => e.code)).toEqual([2345]);
    expect(errors[0]?.text).toContain('"guest.add"');
  });
});
