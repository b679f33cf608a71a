import { orcaVitest } from '@orca/config/vitest';

export default orcaVitest();
