import { createRequire } from 'node:module';
import { Language, type Node, Parser } from 'web-tree-sitter';

const require = createRequire(import.meta.url);
let parser: Parser | undefined;

/** A PowerShell grammar parser (tree-sitter-powershell via web-tree-sitter; a syntax check, not a runtime). */
export async function powershellParser(): Promise<Parser> {
  if (parser) return parser;
  await Parser.init();
  const lang = await Language.load(require.resolve('tree-sitter-powershell/tree-sitter-powershell.wasm'));
  parser = new Parser();
  parser.setLanguage(lang);
  return parser;
}

/** Error or missing nodes of `source` (empty = parses cleanly), with positions. */
export async function powershellErrors(source: string): Promise<string[]> {
  const p = await powershellParser();
  const tree = p.parse(source);
  if (!tree) return ['no tree'];
  const out: string[] = [];
  const walk = (n: Node) => {
    if (n.isError || n.isMissing)
      out.push(
        `${n.isMissing ? 'missing' : 'error'} ${n.type} at ${n.startPosition.row + 1}:${n.startPosition.column + 1}`,
      );
    for (const c of n.children) if (c) walk(c);
  };
  walk(tree.rootNode);
  if (tree.rootNode.hasError && out.length === 0) out.push('hasError');
  return out;
}
