import { describe } from 'vitest';
import { tourTest } from '../src/scenarios/tour-test.ts';

describe('agents lab: gemini', () => {
  tourTest('gemini', ['BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent']);
});
