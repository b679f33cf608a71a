import { describe } from 'vitest';
import { tourTest } from '../src/scenarios/tour-test.ts';

describe('agents lab: codex', () => {
  tourTest('codex', ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop']);
});
