import { describe } from 'vitest';
import { tourTest } from '../src/scenarios/tour-test.ts';

describe('agents lab: claude', () => {
  tourTest('claude', ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop']);
});
