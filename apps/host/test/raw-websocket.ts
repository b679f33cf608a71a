import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * A WebSocket client written against the raw TCP socket that never answers a close frame (and
 * never closes by itself): what a hostile or broken client does. It sends masked text frames and
 * collects every frame the server sends.
 */
export interface RawWebSocket {
  /** The upgrade's status line code (101 when it opened). */
  readonly status: number;
  /** Sends a text frame; false once the TCP socket is gone. */
  sendText(text: string): boolean;
  /** Text payloads received, and close frames as `close:CODE:REASON`. */
  readonly received: string[];
  /** True once the server cut the TCP connection. */
  readonly ended: boolean;
  readonly endedAt: Promise<void>;
  destroy(): void;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, 0x80 | len])
      : Buffer.from([0x80 | opcode, 0x80 | 126, (len >> 8) & 0xff, len & 0xff]);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i] = (body[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return Buffer.concat([head, mask, body]);
}

/** Opens `ws://127.0.0.1:PORT/ws` with `protocols` and `origin`. */
export function openRawWebSocket(port: number, protocols: string[], origin: string): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const received: string[] = [];
    let ended = false;
    let onEnd: () => void = () => undefined;
    const endedAt = new Promise<void>((r) => {
      onEnd = r;
    });
    let buffer = Buffer.alloc(0);
    let status = 0;
    const finish = (): void => {
      ended = true;
      onEnd();
    };
    socket.on('close', finish);
    socket.on('error', () => undefined);
    const parseFrames = (): void => {
      for (;;) {
        if (buffer.length < 2) return;
        const opcode = (buffer[0] ?? 0) & 0x0f;
        let len = (buffer[1] ?? 0) & 0x7f;
        let offset = 2;
        if (len === 126) {
          if (buffer.length < 4) return;
          len = buffer.readUInt16BE(2);
          offset = 4;
        } else if (len === 127) {
          if (buffer.length < 10) return;
          len = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + len) return;
        const payload = buffer.subarray(offset, offset + len);
        buffer = buffer.subarray(offset + len);
        if (opcode === 1) received.push(payload.toString('utf8'));
        // Why: the close frame is recorded and never answered.
        else if (opcode === 8)
          received.push(`close:${payload.length >= 2 ? payload.readUInt16BE(0) : 0}:${payload.subarray(2)}`);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (status === 0) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        status = Number(/^HTTP\/1\.1 (\d{3})/.exec(buffer.subarray(0, end).toString('latin1'))?.[1] ?? 0);
        buffer = buffer.subarray(end + 4);
        resolve({
          status,
          received,
          get ended() {
            return ended;
          },
          endedAt,
          sendText: (text) => {
            if (socket.destroyed || ended) return false;
            socket.write(frame(1, Buffer.from(text, 'utf8')));
            return true;
          },
          destroy: () => socket.destroy(),
        });
      }
      parseFrames();
    });
    socket.once('connect', () => {
      socket.write(
        [
          'GET /ws HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          `Sec-WebSocket-Protocol: ${protocols.join(', ')}`,
          `Origin: ${origin}`,
          '',
          '',
        ].join('\r\n'),
      );
    });
    socket.once('error', reject);
  });
}
