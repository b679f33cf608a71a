import { orcaVitest } from '@orca/config/vitest';

export default orcaVitest({ test: { globalSetup: ['test/global-setup.ts'] } });
