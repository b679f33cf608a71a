import { orcaTsup } from '@orca/config/tsup';
import type { Options } from 'tsup';

const config: Options = orcaTsup({
  index: 'src/index.ts',
  cli: 'src/cli.ts',
  'screen-worker': 'src/panes/screen-worker.ts',
});

export default config;
