import { orcaTsup } from '@orca/config/tsup';
import type { Options } from 'tsup';

const config: Options = orcaTsup({
  index: 'src/index.ts',
  cli: 'src/cli.ts',
  'sandbox-bwrap': 'src/sandbox-bwrap.ts',
  reports: 'src/reports/index.ts',
});
export default config;
