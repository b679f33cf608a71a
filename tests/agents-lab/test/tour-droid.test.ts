import { describe } from 'vitest';
import { tourTest } from '../src/scenarios/tour-test.ts';

describe('agents lab: droid', () => {
  // Why: 0.225.2 fires Notification at its approval dialog and no PermissionRequest.
  tourTest('droid', ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Notification', 'PostToolUse', 'Stop']);
});
