/**
 * A WebSocket text message framed once for many sockets (RFC 6455 §5.2). The hub serialises a tick once and
 * writes the same bytes to every subscriber's connection, instead of asking `ws` to frame (and encode) it
 * again per socket. Frames from a server are never masked, so one frame serves every socket.
 */
export interface SharedMessage {
  /** the JSON text, for sockets that are not written raw (tests, a connection with an extension) */
  readonly text: string;
  /** the whole frame: FIN + text opcode, the payload length, the UTF-8 payload */
  readonly frame: Buffer;
}

/** FIN bit set, opcode 1 (text) */
const FIN_TEXT = 0x81;

export function textFrame(text: string): SharedMessage {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = FIN_TEXT;
  if (header === 2) {
    frame[1] = length;
  } else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(0, 2); // a message is never 4 GiB: the high half of the 64-bit length is 0
    frame.writeUInt32BE(length, 6);
  }
  frame.write(text, header, 'utf8');
  return { text, frame };
}
