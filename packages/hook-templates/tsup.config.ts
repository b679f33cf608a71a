import { orcaTsup } from '@orca/config/tsup';
import type { Options } from 'tsup';

const config: Options = orcaTsup({
  index: 'src/index.ts',
  agents: 'src/agents/index.ts',
  plan: 'src/plan/index.ts',
  emit: 'src/emit/index.ts',
  launchers: 'src/launchers/index.ts',
  endpoint: 'src/endpoint/index.ts',
  install: 'src/install/index.ts',
  'node-io': 'src/install/node-io.ts',
  verify: 'src/verify/index.ts',
  'agent-version': 'src/versions/index.ts',
  cli: 'src/cli.ts',
});

export default config;
