import { printableField } from '@orca/shared/printable';
import { createTerminalClient } from '@orca/wire/terminal-stream';
import { ATTACH_DETACH_BYTE, ATTACH_REFUSED_NOTICE_MS, EXIT_OK, EXIT_REFUSED } from '../constants.ts';
import type { RuntimeClient } from '../rpc/client.ts';
import type { CliIo } from './output.ts';

/**
 * `orca attach HANDLE`: interactive attach over `terminal.multiplex` (`@orca/wire`'s terminal
 * client): the snapshot, then live output to stdout; stdin in raw mode to the pane; terminal
 * resizes forwarded; Ctrl-] detaches (exit 0); the pane exiting ends the attach.
 */
export async function runAttach(
  client: RuntimeClient,
  handle: string,
  io: CliIo,
  opts: { allowClipboard?: boolean } = {},
): Promise<number> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  let done: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => {
    done = resolve;
  });
  const terminal = createTerminalClient({
    type: 'desktop',
    send: (bytes) => {
      client.socket.send(bytes, { binary: true });
      return true;
    },
    // Why: the clipboard (OSC 52) is an explicit grant of this client; without it the host strips it.
    call: (method, params) =>
      client.send(
        method,
        method === 'terminal.multiplex' && opts.allowClipboard === true
          ? { ...(params as Record<string, unknown>), clipboard: true }
          : params,
        (event) => terminal.handleEvent(event),
      ),
  });
  client.socket.on('message', (data, isBinary) => {
    if (isBinary) terminal.receive(new Uint8Array(data as Buffer));
  });
  client.socket.on('close', () => done(EXIT_OK));
  const viewport = stdout.isTTY ? { cols: stdout.columns, rows: stdout.rows } : undefined;
  let streamId = 0;
  let refusedNoticeAt = 0;
  const claimSize = (): void => {
    if (stdout.isTTY && streamId !== 0) terminal.claimViewport(streamId, stdout.columns, stdout.rows);
  };
  streamId = terminal.subscribe({
    terminal: handle,
    ...(viewport ? { viewport } : {}),
    sink: {
      // Why: a desktop client's plain Resize only registers geometry; the pane takes this
      // terminal's size through a viewport claim, released when the attach ends.
      onSubscribed: () => claimSize(),
      onSnapshot: (s) => {
        stdout.write(s.route === 'recovery' ? `\x1b[2J\x1b[H${s.data}` : s.data);
      },
      onOutput: (text) => {
        stdout.write(text);
      },
      onError: (message) => {
        io.err(`orca: attach: ${printableField(message)}`);
        done(EXIT_REFUSED);
      },
      // Why: keys typed while a prompt is being delivered are refused by the host (one writer per pane); say so once in a while.
      onWriteUnavailable: () => {
        if (Date.now() - refusedNoticeAt < ATTACH_REFUSED_NOTICE_MS) return;
        refusedNoticeAt = Date.now();
        io.err('orca: input refused while a prompt is being delivered into this pane; type again after it');
      },
      onEnd: () => done(EXIT_OK),
    },
  });
  const onInput = (chunk: Buffer): void => {
    const at = chunk.indexOf(ATTACH_DETACH_BYTE);
    if (at >= 0) {
      if (at > 0) terminal.input(streamId, chunk.subarray(0, at).toString('utf8'));
      done(EXIT_OK);
      return;
    }
    terminal.input(streamId, chunk.toString('utf8'));
  };
  const onResize = (): void => claimSize();
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.on('data', onInput);
  stdout.on('resize', onResize);
  const code = await finished;
  stdin.off('data', onInput);
  stdout.off('resize', onResize);
  if (stdin.isTTY) stdin.setRawMode(false);
  stdin.pause();
  terminal.unsubscribe(streamId);
  return code;
}
