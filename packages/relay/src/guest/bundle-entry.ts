// Entry of the self-contained guest bundle `dist/guest-relay.cjs` (built with esbuild).
import { mainRelayProcess } from './process-main.ts';

mainRelayProcess(process.argv.slice(2));
