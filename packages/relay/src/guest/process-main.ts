import { printableBlock, printableField } from '@orca/shared/printable';
import { RELAY_PROTOCOL_VERSION } from '@orca/wire/relay-frames';
import { RelayError } from '../errors.ts';
import { RELAY_EXIT_CODES } from '../protocol.ts';
import { runGuestRelay } from './run-guest-relay.ts';
import { currentRelayVersion } from './version.ts';

/**
 * The usage error of `orca-relay` (`ORCA_RELAY_USAGE`, exit {@link RELAY_EXIT_CODES.badArgs}): it
 * takes no argument but `--version`; its inputs come from the environment.
 */
export function relayUsageError(args: readonly string[]): RelayError {
  return new RelayError(
    'ORCA_RELAY_USAGE',
    `unexpected argument ${printableField(JSON.stringify((args[0] ?? '').slice(0, 200)))}; usage: orca-relay (the guest relay on stdio, inputs from env) | orca-relay --version`,
    { context: { argc: args.length } },
  );
}

/**
 * The `orca-relay` process entry: parses argv, redirects `console.*` to stderr, runs the relay
 * on the process stdio and exits on signals.
 *
 * @example
 * mainRelayProcess(process.argv.slice(2));
 */
export function mainRelayProcess(args: readonly string[]): void {
  if (args.length === 1 && args[0] === '--version') {
    process.stdout.write(
      `${JSON.stringify({ name: 'orca-relay', version: currentRelayVersion(), protocol: RELAY_PROTOCOL_VERSION })}\n`,
    );
    process.exitCode = RELAY_EXIT_CODES.clean;
    return;
  }
  if (args.length > 0) {
    const usage = relayUsageError(args);
    process.stderr.write(`orca-relay: ${usage.code}: ${usage.message}\n`);
    process.exitCode = RELAY_EXIT_CODES.badArgs;
    return;
  }
  // Why: stdout carries only the sentinel, then frames. Diagnostics may quote guest paths and
  // hook fields: no control character but newline reaches the terminal that shows stderr.
  const toStderr = (...a: unknown[]): void => {
    process.stderr.write(`${printableBlock(a.map(String).join(' '))}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
  console.error = toStderr;
  process.on('uncaughtException', (err) => {
    process.stderr.write(`orca-relay: uncaught: ${printableBlock(String(err instanceof Error ? err.stack : err))}\n`);
    process.exit(RELAY_EXIT_CODES.failure);
  });
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(
      `orca-relay: unhandled rejection: ${printableField(reason instanceof Error ? reason.message : String(reason))}\n`,
    );
  });
  const relay = runGuestRelay({
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => relay.shutdown());
  void relay.exited.then((code) => process.exit(code));
}
