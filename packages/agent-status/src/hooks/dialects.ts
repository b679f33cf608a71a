import type { RowState } from '../types.ts';
import { asObject, eventKey, type JsonObject, stringField, toolNameOf } from './payload-fields.ts';

/** What one hook event means for the pane, before history is applied. */
export interface HookMeaning {
  state: RowState;
  interrupted?: true;
  toolUseId?: string;
  /** The agent shows this wait as an on-screen dialog (see `StatusRow.dialog`). */
  dialog?: true;
}

/** Per-pane memory a dialect may keep between events. */
export interface DialectMemory {
  /** Claude: subagents (agent_id) that started and have not stopped. */
  openChildren: Set<string>;
  /** Amp: threads whose agent.end arrived. */
  endedThreads: Set<string>;
  /** Last state the pane reported, if any. */
  lastState: RowState | undefined;
}

/** Maps an event to a meaning; null = ignored. */
export type Dialect = (event: string, payload: JsonObject, memory: DialectMemory) => HookMeaning | null;

const W: HookMeaning = { state: 'working' };
const DONE: HookMeaning = { state: 'done' };
const WAIT: HookMeaning = { state: 'waiting' };
const BLOCK: HookMeaning = { state: 'blocked' };
/** A wait the agent shows as a dialog on screen: a PermissionRequest. */
const DIALOG_WAIT: HookMeaning = { state: 'waiting', dialog: true };

function interrupted(state: RowState, flag: boolean): HookMeaning {
  return flag ? { state, interrupted: true } : { state };
}

/**
 * Claude's dialect with extra events that end a turn (`extraDone`) or end it cancelled
 * (`cancelled`), by lower-case key; devin and grok speak it with theirs.
 */
export function claudeFamily(extraDone: readonly string[], cancelled: readonly string[]): Dialect {
  return (event, payload, memory) => {
    const key = eventKey(event);
    const childId = stringField(payload, 'agent_id', 'agentId');
    if (key === 'subagentstop' && childId !== undefined) {
      memory.openChildren.delete(childId);
      return null;
    }
    // Why: events a subagent fires never set the lead's state; they only prove the child is open.
    if (childId !== undefined) {
      memory.openChildren.add(childId);
      return null;
    }
    switch (key) {
      case 'userpromptsubmit':
        memory.openChildren.clear();
        return W;
      case 'pretooluse':
      case 'posttooluse':
      case 'posttoolusefailure':
        if (key === 'pretooluse' && toolNameOf(payload) === 'AskUserQuestion') return WAIT;
        return W;
      case 'permissionrequest': {
        // Why: Claude Code 2.1.x sends no tool_use_id with PermissionRequest (seen in the agents lab);
        // the dialog on screen, not the id, is what proves the wait is still open.
        const id = stringField(payload, 'tool_use_id', 'toolUseId');
        return id === undefined ? DIALOG_WAIT : { state: 'waiting', toolUseId: id, dialog: true };
      }
      case 'stop':
        return memory.openChildren.size > 0 ? W : DONE;
      case 'stopfailure':
        return interrupted('done', payload.is_interrupt === true);
      case 'postcompact':
        return stringField(payload, 'trigger') === 'manual' ? DONE : null;
      case 'sessionstart': {
        const source = stringField(payload, 'source');
        if (source === 'startup' || source === 'resume' || source === 'clear') {
          memory.openChildren.clear();
          return DONE;
        }
        return null;
      }
      default:
        if (extraDone.includes(key)) return DONE;
        if (cancelled.includes(key)) return { state: 'done', interrupted: true };
        return null;
    }
  };
}

/** Claude Code's hook events (and those of agents that copy its hooks). */
export const claudeDialect: Dialect = claudeFamily([], []);

/** Codex's hook events. */
export const codexDialect: Dialect = (event, payload) => {
  switch (eventKey(event)) {
    case 'sessionstart':
      return stringField(payload, 'source') === 'compact' ? null : W;
    case 'userpromptsubmit':
    case 'posttooluse':
      return W;
    case 'pretooluse':
      return toolNameOf(payload) === 'request_user_input' ? WAIT : W;
    case 'permissionrequest':
      return isAutoReview(payload) ? W : DIALOG_WAIT;
    case 'stop':
      return DONE;
    default:
      return null;
  }
};

// Why: Codex's auto-reviewer raises PermissionRequest for calls no human is asked about.
function isAutoReview(payload: JsonObject): boolean {
  if (payload.auto_review === true || payload.autoReview === true) return true;
  const reviewer = stringField(payload, 'reviewer', 'approval_reviewer', 'decision_source');
  return reviewer !== undefined && /auto/i.test(reviewer);
}

/** Gemini's hook events. */
export const geminiDialect: Dialect = (event) => {
  switch (eventKey(event)) {
    case 'beforeagent':
    case 'beforetool':
    case 'aftertool':
    case 'pretooluse':
    case 'posttooluse':
      return W;
    case 'afteragent':
      return DONE;
    default:
      return null;
  }
};

/** Antigravity's hook events. */
export const antigravityDialect: Dialect = (event) => {
  switch (eventKey(event)) {
    case 'preinvocation':
    case 'pretooluse':
    case 'posttooluse':
      return W;
    case 'stop':
      return DONE;
    default:
      return null;
  }
};

/** Cursor's hook events. */
export const cursorDialect: Dialect = (event, payload, memory) => {
  switch (eventKey(event)) {
    case 'beforesubmitprompt':
    case 'sessionstart':
    case 'pretooluse':
    case 'posttooluse':
    case 'posttoolusefailure':
    case 'beforeshellexecution':
    case 'beforemcpexecution':
      return W;
    case 'afteragentresponse':
      // Why: the response hook can land after `stop`; a finished turn stays finished.
      return memory.lastState === 'done' ? DONE : W;
    case 'stop': {
      const status = stringField(payload, 'status');
      return interrupted('done', status !== undefined && status !== 'completed');
    }
    case 'sessionend':
      return DONE;
    default:
      return null;
  }
};

/**
 * Opencode's events, as Orca's status plugin posts them (`@orca/hook-templates`
 * `install/opencode-plugin.ts`; mimo-code, an opencode fork, posts the same): bus events turned
 * into hook events. A reply to a permission or a question resumes the turn unless it refused it.
 */
export const opencodeDialect: Dialect = (event, payload) => {
  switch (eventKey(event)) {
    case 'userpromptsubmit':
    case 'sessionbusy':
    case 'messagepart':
      return W;
    case 'permissionreplied':
    case 'questionreplied':
      return stringField(payload, 'reply') === 'reject' ? null : W;
    case 'permissionrequest':
    case 'askuserquestion':
      return WAIT;
    case 'sessionerror':
      return interrupted('done', stringField(payload, 'error') === 'MessageAbortedError');
    case 'sessionidle':
    case 'sessionstart':
      return DONE;
    default:
      return null;
  }
};

/** Amp's hook events. */
export const ampDialect: Dialect = (event, payload, memory) => {
  const thread = stringField(payload, 'thread_id', 'threadId', 'thread') ?? '';
  switch (eventKey(event)) {
    case 'sessionstart':
      memory.endedThreads.clear();
      return null;
    case 'agentstart':
      memory.endedThreads.delete(thread);
      return W;
    case 'toolcall':
    case 'toolresult':
      return memory.endedThreads.has(thread) ? null : W;
    case 'agentend': {
      memory.endedThreads.add(thread);
      const status = stringField(payload, 'status', 'reason');
      return interrupted('done', status === 'cancelled' || payload.cancelled === true);
    }
    default:
      return null;
  }
};

/** Pi's hook events. */
export const piDialect: Dialect = (event, payload) => {
  const key = eventKey(event);
  switch (key) {
    case 'toolcall':
    case 'toolexecutionstart':
      return toolNameOf(payload)?.toLowerCase() === 'ask' ? BLOCK : W;
    case 'beforeagentstart':
    case 'agentstart':
    case 'toolexecutionend':
    case 'messageend':
    case 'toolapprovalresolved':
      return W;
    case 'toolapprovalrequested':
      return BLOCK;
    case 'agentend':
      return DONE;
    default:
      return null;
  }
};

/** Droid's hook events. */
export const droidDialect: Dialect = (event, payload) => {
  switch (eventKey(event)) {
    case 'userpromptsubmit':
    case 'posttooluse':
      return W;
    case 'pretooluse': {
      const approval =
        payload.requires_approval === true || payload.requiresApproval === true || payload.needs_approval === true;
      return toolNameOf(payload) === 'AskUser' || approval ? WAIT : W;
    }
    // Why: Droid draws these waits as its approval dialog and fires no hook when one is answered
    // (0.225.2, agents lab: Notification, then PostToolUse only after the approved tool ran); the
    // dialog on screen, not a later hook, proves the wait is still open.
    case 'permissionrequest':
      return DIALOG_WAIT;
    case 'notification': {
      const text =
        `${stringField(payload, 'notification_type', 'notificationType') ?? ''} ${stringField(payload, 'message') ?? ''}`.toLowerCase();
      if (text.includes('permission') || text.includes('approval')) return DIALOG_WAIT;
      if (text.includes('idle') || text.includes('waiting for your input')) return DONE;
      return null;
    }
    case 'stop':
      return DONE;
    default:
      return null;
  }
};

/** Copilot's hook events. */
export const copilotDialect: Dialect = (event, payload) => {
  switch (eventKey(event)) {
    case 'sessionstart':
    case 'userpromptsubmit':
    case 'userpromptsubmitted':
    case 'posttooluse':
    case 'posttoolusefailure':
    case 'permissionrequest':
      return W;
    case 'pretooluse':
      return toolNameOf(payload) === 'ask_user' ? BLOCK : W;
    case 'notification': {
      const type = stringField(payload, 'notification_type', 'notificationType', 'type');
      // Why: 1.0.102 draws a `permission_prompt` as its approval dialog and fires no hook when it is
      // answered (agents lab: PostToolUse only after the approved tool ran, nothing after a deny);
      // the dialog on screen, not a later hook, proves the wait is still open.
      if (type === 'permission_prompt') return DIALOG_WAIT;
      return type === 'elicitation_dialog' ? BLOCK : null;
    }
    case 'stop':
    case 'sessionend':
      return DONE;
    case 'erroroccurred': {
      const error = asObject(payload.error);
      const fatal = payload.fatal === true || error?.fatal === true || stringField(payload, 'severity') === 'fatal';
      return fatal ? DONE : null;
    }
    default:
      return null;
  }
};

/**
 * Qwen Code's hooks are Claude's, except that 0.24.4 fires SessionStart while its folder-trust
 * dialog is still up (agents lab): a startup `done` row there would clear that dialog's wait. Its
 * composer, not the hook, says when it is at rest.
 */
export const qwenDialect: Dialect = (event, payload, memory) =>
  eventKey(event) === 'sessionstart' ? null : claudeDialect(event, payload, memory);
