import { orcaVitest } from '@orca/config/vitest';

// Why: each tour runs a real agent CLI, a host and a model stand-in; one at a time keeps the
// machine's two cores for the agent under test.
export default orcaVitest({ test: { fileParallelism: false, testTimeout: 60_000 } });
