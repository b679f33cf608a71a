/**
 * How an agent CLI resumes one of its own sessions by id, from the command line it was first
 * launched with: the launch flags are kept (the permission mode above all: a resume without it
 * sits at approval prompts the first run never showed), the initial prompt and any earlier
 * resume/continue/new-session choice are dropped, and the agent's own resume form is added.
 * Checked against the CLIs' `--help`: Claude Code 2.1.x `--resume <id>`, Codex 0.171
 * `codex resume <SESSION_ID> [OPTIONS]`, Gemini CLI 0.61 `--resume <uuid|index|latest>`.
 */
export interface ResumeSpec {
  /** The agent's command name (the basename of argv[0]). */
  readonly command: string;
  /** Options that take a value (`--opt value`; `--opt=value` is one word anyway), long and short. */
  readonly valueOptions: readonly string[];
  /** Options to drop with their value (a new session id, an earlier resume, the initial prompt). */
  readonly dropWithValue: readonly string[];
  /** Flags to drop (no value). */
  readonly dropFlags: readonly string[];
  /** Options after which the agent does not run interactively (nothing to resume into). */
  readonly notInteractive: readonly string[];
  /** Builds the resume command from the kept argv (argv[0] first) and the session id. */
  readonly build: (kept: readonly string[], sessionId: string) => string[];
}

/** The agents whose sessions Orca can resume, by agent id. */
export const RESUME_SPECS: Readonly<Record<string, ResumeSpec>> = Object.freeze({
  claude: {
    command: 'claude',
    valueOptions: [
      '--permission-mode',
      '--model',
      '--settings',
      '--add-dir',
      '--allowedTools',
      '--allowed-tools',
      '--disallowedTools',
      '--disallowed-tools',
      '--mcp-config',
      '--append-system-prompt',
      '--system-prompt',
      '--fallback-model',
      '--agents',
      '--agent',
      '--setting-sources',
      '--plugin-dir',
      '--betas',
      '--output-format',
      '--input-format',
      '--max-turns',
    ],
    dropWithValue: ['--resume', '-r', '--session-id', '--from-pr'],
    dropFlags: ['--continue', '-c', '--fork-session'],
    notInteractive: ['-p', '--print'],
    build: (kept, id) => [...kept, '--resume', id],
  },
  codex: {
    command: 'codex',
    valueOptions: [
      '-c',
      '--config',
      '-m',
      '--model',
      '-p',
      '--profile',
      '-s',
      '--sandbox',
      '-a',
      '--ask-for-approval',
      '-C',
      '--cd',
      '--add-dir',
      '-i',
      '--image',
      '--enable',
      '--disable',
      '--local-provider',
      '--remote',
      '--remote-auth-token-env',
    ],
    dropWithValue: [],
    dropFlags: ['--last', '--all'],
    notInteractive: ['exec', 'e', 'review', 'login', 'logout', 'mcp', 'app-server', 'apply', 'completion'],
    build: ([command, ...flags], id) => [command ?? 'codex', 'resume', id, ...flags],
  },
  gemini: {
    command: 'gemini',
    valueOptions: [
      '-m',
      '--model',
      '--approval-mode',
      '-e',
      '--extensions',
      '--include-directories',
      '--allowed-tools',
      '--allowed-mcp-server-names',
      '-o',
      '--output-format',
      '-w',
      '--worktree',
    ],
    dropWithValue: ['-r', '--resume', '--session-id', '--session-file', '-i', '--prompt-interactive'],
    dropFlags: [],
    notInteractive: ['-p', '--prompt', '--list-sessions', '--delete-session', '-l', '--list-extensions'],
    build: (kept, id) => [...kept, '--resume', id],
  },
});

/** Why a pane cannot be resumed, or the command that resumes it. */
export type ResumePlan = { readonly argv: string[] } | { readonly reason: string };

/** A session id as the agents write them (UUID-like); anything else is not passed to a command line. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The command that resumes session `sessionId` of `agent`, launched first as `argv`, or why not.
 *
 * @example
 * resumePlan('claude', ['claude', '--permission-mode', 'default', 'fix it'], 'a1b2');
 * // { argv: ['claude', '--permission-mode', 'default', '--resume', 'a1b2'] }
 * resumePlan('codex', ['codex', '-a', 'on-request'], 'a1b2');
 * // { argv: ['codex', 'resume', 'a1b2', '-a', 'on-request'] }
 */
export function resumePlan(agent: string | null, argv: readonly string[], sessionId: string | null): ResumePlan {
  if (agent === null) return { reason: 'no agent was seen in this pane (no hook event named one)' };
  const spec = Object.hasOwn(RESUME_SPECS, agent) ? RESUME_SPECS[agent] : undefined;
  if (!spec) return { reason: `resuming ${agent} sessions is not supported yet` };
  if (sessionId === null) return { reason: `${agent} never reported a session id in its hooks` };
  if (!SESSION_ID.test(sessionId))
    return { reason: 'the session id the hooks reported is not one a command line takes' };
  const [first, ...rest] = argv;
  if (first === undefined || basename(first) !== spec.command) {
    return {
      reason: `the pane ran ${first === undefined ? 'nothing' : `\`${basename(first)}\``}, not \`${spec.command}\` itself; resume it by hand`,
    };
  }
  const kept: string[] = [first];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i] as string;
    // Why: after `--` every word is an operand (the initial prompt, even one starting with `-`).
    if (word === '--') break;
    const name = word.startsWith('--') && word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    if (spec.notInteractive.includes(name) && (word.startsWith('-') || i === 0)) {
      return { reason: `\`${word}\` runs ${agent} without its interactive session; nothing to resume into` };
    }
    if (spec.dropFlags.includes(name)) continue;
    if (spec.dropWithValue.includes(name)) {
      if (name === word) i += 1;
      continue;
    }
    if (spec.valueOptions.includes(name)) {
      kept.push(word);
      if (name === word && i + 1 < rest.length) kept.push(rest[++i] as string);
      continue;
    }
    if (word.startsWith('-')) kept.push(word);
    // Why: a bare word is the initial prompt (or a subcommand such as codex `resume ID`): a
    // resumed session must not be sent its first prompt again.
  }
  return { argv: spec.build(kept, sessionId) };
}
