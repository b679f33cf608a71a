import type { Command } from 'commander';
import { EXIT_OK } from '../constants.ts';
import { HostError } from '../errors.ts';
import type { CliContext } from './cli-context.ts';
import { printableField, terminalSafeJson } from './printable.ts';
import { connectFromGlobals } from './runtime-connection.ts';

interface SessionsResult {
  serving: boolean;
  sessions: { id: string; createdAt: number; sockets: number }[];
}

/** Registers `orca web sessions` and `orca web revoke ID` (browser sessions of `orca start --web`). */
export function addWebCommands(program: Command, { io, state, globals }: CliContext): void {
  const web = program.command('web').description('browser sessions of `orca start --web`');
  web
    .command('sessions')
    .description('list the paired browser sessions')
    .action(async () => {
      const client = await connectFromGlobals(globals());
      try {
        const result = await client.call<SessionsResult>('web.sessions');
        if (globals().json) io.out(terminalSafeJson(result));
        else if (!result.serving) io.out('the host is not serving the web client (start it with --web)');
        else if (result.sessions.length === 0) io.out('no browser sessions');
        else
          for (const s of result.sessions)
            io.out(`${printableField(s.id)}  paired ${new Date(s.createdAt).toISOString()}  ${s.sockets} open`);
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
        const { revoked } = await client.call<{ revoked: boolean }>('web.revoke', { id });
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
