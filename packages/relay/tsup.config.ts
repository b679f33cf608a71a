import { orcaTsup } from '@orca/config/tsup';
import type { Options } from 'tsup';

const config: Options = orcaTsup({
  index: 'src/index.ts',
  listener: 'src/listener/index.ts',
  guest: 'src/guest/index.ts',
  manager: 'src/manager/index.ts',
  cli: 'src/cli.ts',
});
export default config;
