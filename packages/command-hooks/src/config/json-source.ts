import {
  findNodeAtLocation,
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A parsed config file that can locate JSON pointers. */
export interface JsonSource {
  value: unknown;
  /** Line/column of the node at `path`, or of its nearest existing ancestor. */
  locate(path: readonly (string | number)[]): { line?: number; column?: number };
}

/** Parse JSON (comments and trailing commas tolerated) or return the first syntax error, positioned. */
export function parseJsonSource(
  text: string,
): { ok: true; source: JsonSource } | { ok: false; line: number; column: number; message: string } {
  const errors: ParseError[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const tree = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined || tree === undefined) {
    const offset = first?.offset ?? 0;
    const { line, column } = lineColumn(body, offset);
    const what = first ? printParseErrorCode(first.error) : 'EmptyFile';
    return { ok: false, line, column, message: `invalid JSON at ${line}:${column}: ${what}` };
  }
  const locate = (path: readonly (string | number)[]) => {
    for (let n = path.length; n >= 0; n--) {
      const node: Node | undefined = findNodeAtLocation(tree, path.slice(0, n) as (string | number)[]);
      if (node) return lineColumn(body, node.parent?.type === 'property' ? node.parent.offset : node.offset);
    }
    return {};
  };
  return { ok: true, source: { value: getNodeValue(tree), locate } };
}
