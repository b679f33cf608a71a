import { orcaTsup } from '@orca/config/tsup';
import type { Options } from 'tsup';

const config: Options = orcaTsup({
  index: 'src/index.ts',
  'terminal-stream': 'src/terminal-stream/index.ts',
  rpc: 'src/rpc/index.ts',
  'relay-frames': 'src/relay-frames/index.ts',
  compat: 'src/compat/index.ts',
  contract: 'src/contract/index.ts',
});

export default config;
