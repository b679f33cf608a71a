import { printableField, terminalSafeJson } from '@orca/shared/printable';
import type { Command } from 'commander';
import QRCode from 'qrcode';
import { EXIT_OK, WEB_PAIRING_TTL_MAX_MS } from '../constants.ts';
import { HostError } from '../errors.ts';
import type { CliContext } from './cli-context.ts';
import { UsageError } from './output.ts';
import { parseDuration } from './parse-args.ts';
import { connectFromGlobals } from './runtime-connection.ts';

/** A time as the CLI prints it: ISO 8601 to the second, UTC. */
const when = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Registers `orca web pair|sessions|revoke` (browser sessions of `orca start --web`). */
export function addWebCommands(program: Command, { io, state, globals }: CliContext): void {
  const web = program.command('web').description('browser sessions of `orca start --web`');
  web
    .command('pair')
    .description('print a new one-time pairing link (and a QR code for a phone); any number of devices can pair')
    .option('--expires <duration>', 'how long the link stays usable: 90s, 10m, 2h (default 10m, at most 24h)', (v) =>
      parseDuration(v, '--expires'),
    )
    .option('--no-qr', 'print the link only')
    .addHelpText(
      'after',
      '\nExample:\n  orca web pair --expires 30m    # open the link, or scan the code, within 30 minutes',
    )
    .action(async (o: { expires?: number; qr: boolean }) => {
      if (o.expires !== undefined && o.expires > WEB_PAIRING_TTL_MAX_MS)
        throw new UsageError('orca web pair: --expires is at most 24h');
      if (o.expires !== undefined && o.expires < 1_000) throw new UsageError('orca web pair: --expires is at least 1s');
      const client = await connectFromGlobals(globals());
      try {
        const paired = await client.call('web.pair', {
          ...(o.expires !== undefined ? { expiresInMs: o.expires } : {}),
        });
        if (globals().json) io.out(terminalSafeJson(paired));
        else {
          if (o.qr) io.out(await QRCode.toString(paired.url, { type: 'utf8', errorCorrectionLevel: 'L', margin: 2 }));
          io.out(`open ${printableField(paired.url)}`);
          io.out(`one-time link; unused, it expires at ${when(paired.expiresAt)}`);
        }
        state.exit = EXIT_OK;
      } finally {
        client.close();
      }
    });
  web
    .command('sessions')
    .description('list the paired browser sessions')
    .action(async () => {
      const client = await connectFromGlobals(globals());
      try {
        const result = await client.call('web.sessions');
        if (globals().json) io.out(terminalSafeJson(result));
        else if (!result.serving) io.out('the host is not serving the web client (start it with --web)');
        else if (result.sessions.length === 0) io.out('no browser sessions');
        else
          for (const s of result.sessions)
            io.out(
              `${printableField(s.id)}  paired ${when(s.createdAt)}  last used ${when(s.lastUsedAt)}  expires ${when(s.expiresAt)}  ${s.sockets} open`,
            );
        state.exit = EXIT_OK;
      } finally {
        client.close();
      }
    });
  web
    .command('revoke')
    .description('end a browser session; its open sockets close')
    .argument('<id>', 'session id (from `orca web sessions`)')
    .action(async (id: string) => {
      const client = await connectFromGlobals(globals());
      try {
        const { revoked } = await client.call('web.revoke', { id });
        if (!revoked)
          throw new HostError(
            'ORCA_HOST_WEB',
            `no browser session ${printableField(id)}; list them with \`orca web sessions\``,
          );
        io.out(globals().json ? terminalSafeJson({ revoked: id }) : `revoked ${printableField(id)}`);
        state.exit = EXIT_OK;
      } finally {
        client.close();
      }
    });
}
