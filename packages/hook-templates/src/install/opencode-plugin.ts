import {
  OPENCODE_PLUGIN_CHILD_TIMEOUT_MS,
  OPENCODE_PLUGIN_MAX_PENDING,
  OPENCODE_PLUGIN_MAX_PROMPT_CHARS,
  OPENCODE_PLUGIN_MAX_SESSIONS,
} from '../constants.ts';

/**
 * First line of the status plugin Orca writes into opencode's plugin folder: how the installers
 * tell their own file (to rewrite or remove) from a user's plugin of the same name.
 */
export const OPENCODE_PLUGIN_MARKER = '// orca-managed: opencode status plugin (@orca/hook-templates)';

/** The process the plugin starts per event: the managed hook script, with the payload on stdin. */
export interface PluginLaunch {
  command: string;
  args: readonly string[];
}

/**
 * The POSIX guard the plugin runs the script through: a removed script (hooks uninstalled while
 * opencode runs) is a quiet no-op that drains stdin, and the script's exit code is the child's. The path is `$1`,
 * never parsed as shell text.
 */
export const OPENCODE_PLUGIN_POSIX_GUARD = 'if [ -f "$1" ]; then exec /bin/sh "$1"; fi; exec cat >/dev/null';

/**
 * How the plugin starts `script` on `os`: POSIX `/bin/sh -c <guard> orca-opencode-hook <script>`;
 * Windows the managed PowerShell script through the system's `powershell.exe` (resolved from
 * `SystemRoot` at run time). No shell parses a path, so none needs quoting.
 */
export function opencodePluginLaunch(os: 'posix' | 'windows', script: string): PluginLaunch {
  if (os === 'posix')
    return { command: '/bin/sh', args: ['-c', OPENCODE_PLUGIN_POSIX_GUARD, 'orca-opencode-hook', script] };
  return {
    command: 'powershell.exe',
    args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', script],
  };
}

/**
 * The source of Orca's opencode status plugin (an ES module opencode loads from its `plugins/`
 * folder). It turns opencode's bus events into hook events and hands each, as a JSON payload on
 * stdin, to the managed hook script — so opencode's events take the same path, endpoint refresh,
 * token guard and spool as every other agent's. Outside an Orca pane (no `ORCA_PANE_KEY`) it does
 * nothing. Events of child sessions (subagents) are not the pane's turn and are dropped; one
 * script runs at a time, in event order, each bounded in time; at most
 * `OPENCODE_PLUGIN_MAX_PENDING` wait, newer ones are dropped rather than queued without bound.
 *
 * Events posted (`hook_event_name`): `SessionStart` (plugin loaded), `UserPromptSubmit` (with
 * `prompt`), `SessionBusy`, `SessionIdle`, `SessionError` (with `error`), `PermissionRequest`,
 * `PermissionReplied` (with `reply`), `AskUserQuestion`, `QuestionReplied`.
 */
export function opencodePluginSource(launch: PluginLaunch): string {
  const lines = [
    OPENCODE_PLUGIN_MARKER,
    '// Written by `orca hooks install opencode`, removed by `orca hooks uninstall opencode`; edits are lost.',
    'import { spawn } from "node:child_process";',
    '',
    `const LAUNCH = ${JSON.stringify(launch)};`,
    `const CHILD_TIMEOUT_MS = ${OPENCODE_PLUGIN_CHILD_TIMEOUT_MS};`,
    `const MAX_PENDING = ${OPENCODE_PLUGIN_MAX_PENDING};`,
    `const MAX_PROMPT_CHARS = ${OPENCODE_PLUGIN_MAX_PROMPT_CHARS};`,
    `const MAX_SESSIONS = ${OPENCODE_PLUGIN_MAX_SESSIONS};`,
    '',
    'const paneKey = typeof process.env.ORCA_PANE_KEY === "string" ? process.env.ORCA_PANE_KEY : "";',
    'let chain = Promise.resolve();',
    'let pending = 0;',
    'let lastStatus = "";',
    'const childSessions = new Map();',
    '',
    'function launchCommand() {',
    '  if (LAUNCH.command !== "powershell.exe") return LAUNCH.command;',
    '  const root = process.env.SystemRoot || process.env.SYSTEMROOT || "C:\\\\Windows";',
    '  return root + "\\\\System32\\\\WindowsPowerShell\\\\v1.0\\\\powershell.exe";',
    '}',
    '',
    'function runScript(body) {',
    '  return new Promise((resolve) => {',
    '    let child;',
    '    try {',
    '      child = spawn(launchCommand(), LAUNCH.args, { stdio: ["pipe", "ignore", "ignore"], windowsHide: true });',
    '    } catch {',
    '      resolve();',
    '      return;',
    '    }',
    '    const done = () => {',
    '      clearTimeout(timer);',
    '      resolve();',
    '    };',
    '    // Why: a child that never reports its close must not hold every later event.',
    '    const timer = setTimeout(() => {',
    '      try { child.kill("SIGKILL"); } catch {}',
    '      done();',
    '    }, CHILD_TIMEOUT_MS);',
    '    child.once("error", done);',
    '    child.once("close", done);',
    '    if (child.stdin) {',
    '      child.stdin.once("error", () => {});',
    '      child.stdin.end(body);',
    '    }',
    '  });',
    '}',
    '',
    '/** Queues one event for the script; false when it was dropped (outside Orca, or too many wait). */',
    'function post(event, fields) {',
    '  if (paneKey === "" || pending >= MAX_PENDING) return false;',
    '  let body;',
    '  try {',
    '    body = JSON.stringify({ hook_event_name: event, ...fields });',
    '  } catch {',
    '    return false;',
    '  }',
    '  pending++;',
    '  chain = chain.then(() => runScript(body)).then(() => { pending--; }, () => { pending--; });',
    '  return true;',
    '}',
    '',
    'function setStatus(next, event, sessionID) {',
    '  if (lastStatus === next) return;',
    '  // Why: a dropped status is sent again by the next one like it, not taken for sent.',
    '  lastStatus = post(event, { session_id: sessionID || "" }) ? next : "";',
    '}',
    '',
    'function text(value, max) {',
    '  return typeof value === "string" ? value.slice(0, max) : "";',
    '}',
    '',
    'function rememberSession(info) {',
    '  if (!info || typeof info.id !== "string") return;',
    '  if (childSessions.size >= MAX_SESSIONS && !childSessions.has(info.id)) {',
    '    childSessions.delete(childSessions.keys().next().value);',
    '  }',
    '  childSessions.set(info.id, typeof info.parentID === "string" && info.parentID !== "");',
    '}',
    '',
    'function sessionOf(props) {',
    '  if (typeof props.sessionID === "string") return props.sessionID;',
    '  if (props.info && typeof props.info.sessionID === "string") return props.info.sessionID;',
    '  if (props.part && typeof props.part.sessionID === "string") return props.part.sessionID;',
    '  return "";',
    '}',
    '',
    'function onEvent(event) {',
    '  if (!event || typeof event.type !== "string") return;',
    '  const props = event.properties && typeof event.properties === "object" ? event.properties : {};',
    '  if (event.type === "session.created" || event.type === "session.updated") {',
    '    rememberSession(props.info);',
    '    return;',
    '  }',
    '  const sessionID = sessionOf(props);',
    "  // Why: a subagent runs in a child session; its status is not the pane's turn, but a question",
    '  // or a permission it asks waits on the human all the same.',
    '  const child = sessionID !== "" && childSessions.get(sessionID) === true;',
    '  if (child && (event.type === "session.status" || event.type === "session.idle" || event.type === "session.error")) return;',
    '  switch (event.type) {',
    '    case "session.status": {',
    '      const type = props.status && props.status.type;',
    '      if (type === "busy" || type === "retry") setStatus("busy", "SessionBusy", sessionID);',
    '      else if (type === "idle") setStatus("idle", "SessionIdle", sessionID);',
    '      return;',
    '    }',
    '    case "session.idle":',
    '      setStatus("idle", "SessionIdle", sessionID);',
    '      return;',
    '    case "session.error": {',
    '      const error = props.error && typeof props.error === "object" ? props.error : {};',
    '      post("SessionError", { session_id: sessionID, error: text(error.name, 200) });',
    '      return;',
    '    }',
    '    case "permission.asked":',
    '    case "permission.updated":',
    '      // Why: the next busy after a wait must post, even if the reply event never comes.',
    '      lastStatus = "asking";',
    '      post("PermissionRequest", {',
    '        session_id: sessionID,',
    '        permission: text(props.permission || props.type, 200),',
    '        title: text(props.title, 2000),',
    '      });',
    '      return;',
    '    case "permission.replied": {',
    '      const reply = text(props.reply || props.response, 200);',
    '      lastStatus = reply === "reject" ? "" : "busy";',
    '      post("PermissionReplied", { session_id: sessionID, reply });',
    '      return;',
    '    }',
    '    case "question.asked":',
    '      lastStatus = "asking";',
    '      post("AskUserQuestion", { session_id: sessionID });',
    '      return;',
    '    case "question.replied":',
    '    case "question.rejected": {',
    '      const rejected = event.type === "question.rejected";',
    '      lastStatus = rejected ? "" : "busy";',
    '      post("QuestionReplied", { session_id: sessionID, reply: rejected ? "reject" : "answer" });',
    '      return;',
    '    }',
    '    default:',
    '      return;',
    '  }',
    '}',
    '',
    'function onUserMessage(input, output) {',
    '  const sessionID = input && typeof input.sessionID === "string" ? input.sessionID : "";',
    '  if (sessionID !== "" && childSessions.get(sessionID) === true) return;',
    '  const parts = output && Array.isArray(output.parts) ? output.parts : [];',
    '  const prompt = parts',
    '    .filter((p) => p && p.type === "text" && typeof p.text === "string" && p.synthetic !== true)',
    '    .map((p) => p.text)',
    '    .join("\\n");',
    '  lastStatus = "busy";',
    '  post("UserPromptSubmit", { session_id: sessionID, prompt: prompt.slice(0, MAX_PROMPT_CHARS) });',
    '}',
    '',
    '// Why: opencode may call a plugin with no context; nothing here reads it.',
    'let started = false;',
    'export const OrcaStatusPlugin = async () => {',
    '  // Why: opencode may load the plugin again (a new instance) mid-turn; that is no new session.',
    '  if (!started) {',
    '    started = true;',
    '    lastStatus = "idle";',
    '    post("SessionStart", {});',
    '  }',
    '  return {',
    '    event: async (input) => {',
    '      try { onEvent(input && input.event); } catch {}',
    '    },',
    '    "chat.message": async (input, output) => {',
    '      try { onUserMessage(input, output); } catch {}',
    '    },',
    '  };',
    '};',
    '',
  ];
  return lines.join('\n');
}
