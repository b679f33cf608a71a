// Starts orca-keeper from its TypeScript source (tests, `pnpm orca` in the workspace): tsx's hooks
// are registered before the entry is imported. Never shipped; the published keeper runs dist/cli.js.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
