import type { Readable, Writable } from 'node:stream';
import { createRelayChannel, type RelayChannel, SentinelScanner } from '@orca/wire/relay-frames';

/** Host side of a relay link over a guest's stdio (tests only). */
export interface HostLink {
  sentinel: Promise<{ version: string; preamble: string }>;
  channel: RelayChannel;
  notifications: { method: string; params: unknown }[];
}

/** Attach a host channel to a guest's stdout/stdin: scan the sentinel, then frames. */
export function attachHost(guestStdout: Readable, guestStdin: Writable, onHook?: (p: unknown) => void): HostLink {
  const scanner = new SentinelScanner();
  const notifications: { method: string; params: unknown }[] = [];
  let found = false;
  let preamble = Buffer.alloc(0);
  let resolveSentinel: (v: { version: string; preamble: string }) => void = () => {};
  const sentinel = new Promise<{ version: string; preamble: string }>((r) => {
    resolveSentinel = r;
  });
  const channel = createRelayChannel({ policy: 'close', write: (b) => guestStdin.write(b) });
  channel.onNotification('agent.hook', (p) => {
    notifications.push({ method: 'agent.hook', params: p });
    onHook?.(p);
  });
  guestStdout.on('data', (chunk: Buffer) => {
    if (found) {
      channel.receive(chunk);
      return;
    }
    preamble = Buffer.concat([preamble, chunk]);
    const s = scanner.push(chunk);
    if (s.kind === 'found') {
      found = true;
      resolveSentinel({
        version: s.version,
        preamble: preamble.subarray(0, preamble.length - s.rest.length).toString('latin1'),
      });
      if (s.rest.length > 0) channel.receive(s.rest);
      channel.start();
    }
  });
  return { sentinel, channel, notifications };
}
