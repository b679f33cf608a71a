import { orcaVitest } from '@orca/config/vitest';

// Why: one slow file (pack, lint, npm install with native builds); the global setup builds a
// missing dist; attw and the installed CLIs share 2 cores with other suites under `pnpm test`.
export default orcaVitest({ test: { globalSetup: ['src/global-setup.ts'], testTimeout: 180_000 } });
