#!/usr/bin/env node
import { homedir } from 'node:os';
import { runCli } from './cli/program.ts';
import { nodeInstallIo } from './install/node-io.ts';
import { nodeVerifyIo } from './verify/node-io.ts';
import { nodeVersionProbe } from './versions/detect.ts';

const code = await runCli(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  install: nodeInstallIo,
  verify: nodeVerifyIo,
  homedir: homedir(),
  env: process.env,
  versionProbe: nodeVersionProbe(process.env),
});
process.exitCode = code;
