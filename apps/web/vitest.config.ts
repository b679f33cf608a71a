import { orcaVitest } from '@orca/config/vitest';

export default orcaVitest({ test: { include: ['src/**/*.test.ts'] } });
