/**
 * The `hook_event_name`s Orca's opencode status plugin posts (see `opencode-plugin.ts`): its
 * registry event list. Kept apart from the plugin source so the registry imports no generator.
 */
export const OPENCODE_PLUGIN_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'SessionBusy',
  'SessionIdle',
  'SessionError',
  'PermissionRequest',
  'PermissionReplied',
  'AskUserQuestion',
  'QuestionReplied',
] as const;
