/** Canonical tool → vendor names and input key spellings. Unknown keys pass through. */

const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  run_shell: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  grep: 'Grep',
  task: 'Task',
};

const CURSOR_TOOL_TOKENS: Readonly<Record<string, string>> = {
  run_shell: 'Shell',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Write',
  delete_file: 'Delete',
  grep: 'Grep',
  task: 'Task',
};

/** Canonical `path` is spelled `file_path` by both vendors on these tools. */
const FILE_PATH_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'delete_file']);

/** `mcp__<server>__<tool>` split, or null. */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m?.[1] !== undefined && m[2] !== undefined ? { server: m[1], tool: m[2] } : null;
}

/** Claude tool name, or null when Claude would not fire for this tool. */
export function claudeToolName(canonical: string): string | null {
  if (parseMcpToolName(canonical)) return canonical;
  return CLAUDE_TOOL_NAMES[canonical] ?? null;
}

/** Cursor `tool_name` token for preToolUse/postToolUse. */
export function cursorToolToken(canonical: string): string {
  const mcp = parseMcpToolName(canonical);
  if (mcp) return `MCP:${mcp.tool}`;
  return CURSOR_TOOL_TOKENS[canonical] ?? canonical;
}

/** Cursor's dedicated before/after family of a tool, if any. */
export function cursorToolFamily(canonical: string): 'shell' | 'mcp' | 'read' | null {
  if (canonical === 'run_shell') return 'shell';
  if (canonical === 'read_file') return 'read';
  if (parseMcpToolName(canonical)) return 'mcp';
  return null;
}

/** Canonical input → vendor input (`path` → `file_path` on file tools). */
export function toVendorInput(canonical: string, input: Record<string, unknown>): Record<string, unknown> {
  if (!FILE_PATH_TOOLS.has(canonical) || !('path' in input)) return { ...input };
  const { path, ...rest } = input;
  return { file_path: path, ...rest };
}

/** Vendor input → canonical input (`file_path` → `path` on file tools). */
export function toCanonicalInput(canonical: string, input: Record<string, unknown>): Record<string, unknown> {
  if (!FILE_PATH_TOOLS.has(canonical) || !('file_path' in input)) return { ...input };
  const { file_path, ...rest } = input;
  return { path: file_path, ...rest };
}
