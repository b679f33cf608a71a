import { orcaTsup } from '@orca/config/tsup';

export default orcaTsup({
  index: 'src/index.ts',
  listener: 'src/listener/index.ts',
  guest: 'src/guest/index.ts',
  manager: 'src/manager/index.ts',
  cli: 'src/cli.ts',
});
