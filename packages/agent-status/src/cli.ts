#!/usr/bin/env node
import { nodeIo, runCli } from './cli/run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), nodeIo);
