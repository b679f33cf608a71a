import { builtinModules } from 'node:module';
import ts from 'typescript';

// Why: the TypeScript pre-processor misses `export * as x from`, `vi.importActual`, createRequire
// and gets lost after a regex literal holding a backtick; a syntax-tree walk sees every form.
const CALLS_WITH_SPECIFIER = new Set([
  'require',
  'require.resolve',
  'import.meta.resolve',
  'vi.importActual',
  'vi.importMock',
  'vi.mock',
  'vi.doMock',
  'vi.unmock',
  'vi.doUnmock',
]);

function calleeName(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) {
    const left = node.expression;
    if (ts.isMetaProperty(left)) return `import.meta.${node.name.text}`;
    const head = calleeName(left);
    return head === undefined ? undefined : `${head}.${node.name.text}`;
  }
  return undefined;
}

function literalText(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  // `import(\`@orca/x/${name}\`)`: the static head still names the package.
  if (ts.isTemplateExpression(node)) return node.head.text || undefined;
  return undefined;
}

function isImportMetaUrl(node: ts.Node | undefined): boolean {
  return (
    node !== undefined &&
    ts.isPropertyAccessExpression(node) &&
    ts.isMetaProperty(node.expression) &&
    node.name.text === 'url'
  );
}

/**
 * Every module specifier a file names: static, type-only and `export … from` (including
 * `export * as`), `import x = require()`, `import('…')` types and calls, `require`/`createRequire`,
 * `require.resolve`, `import.meta.resolve`, vitest module mocks, `new URL('./x', import.meta.url)`,
 * ambient `declare module '…'` and `/// <reference path|types>` directives.
 */
export function readImports(source: string, fileName = 'file.ts'): string[] {
  const kind = /\.(c|m)?jsx?$/.test(fileName) ? ts.ScriptKind.JSX : ts.ScriptKind.TSX;
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const out: string[] = [
    ...sf.referencedFiles.map((r) => (r.fileName.startsWith('.') ? r.fileName : `./${r.fileName}`)),
    ...sf.typeReferenceDirectives.map((r) => r.fileName).filter((name) => name !== 'node'),
  ];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const text = literalText(node.moduleSpecifier);
      if (text !== undefined) out.push(text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const text = literalText(node.moduleReference.expression);
      if (text !== undefined) out.push(text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const text = literalText(node.argument.literal);
      if (text !== undefined) out.push(text);
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      out.push(node.name.text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const first = literalText(node.arguments[0]);
      const named = callee.kind === ts.SyntaxKind.ImportKeyword ? 'import' : calleeName(callee);
      const viaCreateRequire = ts.isCallExpression(callee) && calleeName(callee.expression) === 'createRequire';
      if (first !== undefined && (named === 'import' || CALLS_WITH_SPECIFIER.has(named ?? '') || viaCreateRequire)) {
        out.push(first);
      }
    } else if (
      ts.isNewExpression(node) &&
      calleeName(node.expression) === 'URL' &&
      isImportMetaUrl(node.arguments?.[1])
    ) {
      const text = literalText(node.arguments?.[0]);
      if (text?.startsWith('.')) out.push(text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const BUILTINS = new Set(builtinModules);

/** `true` for `node:fs`, `fs`, `fs/promises`. */
export function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0] ?? '');
}

/** The package part of a bare specifier: `@orca/wire/rpc` → `@orca/wire`, `zod/v4` → `zod`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** The subpath after the package name, '' when none: `@orca/wire/src/x` → `src/x`. */
export function subpathOf(specifier: string): string {
  const name = packageNameOf(specifier);
  return specifier.length > name.length ? specifier.slice(name.length + 1) : '';
}
