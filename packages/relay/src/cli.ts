#!/usr/bin/env node
// bin `orca-relay`: the guest relay on stdio (see README).
import { mainRelayProcess } from './guest/process-main.ts';

mainRelayProcess(process.argv.slice(2));
