import { describe } from 'vitest';
import { tourTest } from '../src/scenarios/tour-test.ts';

describe('agents lab: copilot', () => {
  // Why: 1.0.102 fires Notification `permission_prompt` at each approval dialog and ErrorOccurred
  // (no Stop) when a model call fails.
  tourTest('copilot', [
    'SessionStart',
    'UserPromptSubmit',
    'PreToolUse',
    'PermissionRequest',
    'Notification',
    'PostToolUse',
    'Stop',
    'ErrorOccurred',
  ]);
});
