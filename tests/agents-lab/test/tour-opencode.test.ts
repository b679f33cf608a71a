import { describe } from 'vitest';
import { tourTest } from '../src/scenarios/tour-test.ts';

describe('agents lab: opencode', () => {
  // Why: opencode has no command hooks; these come from the status plugin Orca installs.
  tourTest('opencode', ['SessionStart', 'UserPromptSubmit', 'PermissionRequest', 'PermissionReplied', 'SessionIdle']);
});
