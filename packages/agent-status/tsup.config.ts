import { orcaTsup } from '@orca/config/tsup';
import type { Options } from 'tsup';

const config: Options = orcaTsup({
  index: 'src/index.ts',
  fusion: 'src/fusion/index.ts',
  title: 'src/title/index.ts',
  osc: 'src/osc/index.ts',
  screen: 'src/screen/index.ts',
  hooks: 'src/hooks/index.ts',
  submit: 'src/submit/index.ts',
  fixtures: 'src/fixtures/index.ts',
  limits: 'src/limits.ts',
  cli: 'src/cli.ts',
});

export default config;
