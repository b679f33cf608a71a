import { orcaTsup } from '@orca/config/tsup';

export default orcaTsup({ index: 'src/index.ts', cli: 'src/cli.ts' });
