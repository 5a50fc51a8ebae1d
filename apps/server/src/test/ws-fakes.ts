import type { FastifyBaseLogger } from 'fastify';
import type { FrameSink, HubSocket } from '../realtime/hub.js';

/** A logger that drops everything, for hubs built by hand in tests. */
export const silentLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as FastifyBaseLogger;

/** One server frame read back (RFC 6455 §5.2): FIN, opcode, mask bit, payload as text, and where the next starts. */
export interface ReadFrame {
  fin: boolean;
  opcode: number;
  masked: boolean;
  text: string;
  end: number;
}

export function readFrame(bytes: Buffer, at = 0): ReadFrame {
  const first = bytes[at] ?? 0;
  const second = bytes[at + 1] ?? 0;
  let length = second & 0x7f;
  let offset = at + 2;
  if (length === 126) {
    length = bytes.readUInt16BE(at + 2);
    offset = at + 4;
  } else if (length === 127) {
    length = Number(bytes.readBigUInt64BE(at + 2));
    offset = at + 10;
  }
  return {
    fin: (first & 0x80) !== 0,
    opcode: first & 0x0f,
    masked: (second & 0x80) !== 0,
    text: bytes.subarray(offset, offset + length).toString('utf8'),
    end: offset + length,
  };
}

/** The JSON messages of every frame in one write. */
export function frameMessages(bytes: Buffer): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let at = 0; at < bytes.length;) {
    const frame = readFrame(bytes, at);
    out.push(JSON.parse(frame.text) as Record<string, unknown>);
    at = frame.end;
  }
  return out;
}

/**
 * A socket that records what the hub sends and lets the test speak for the client. It is its own connection
 * too (a FrameSink, for `attach(socket, lang, socket)`): every write to either (`ws`'s own `send`, the hub's
 * shared frames) lands in `writes`, in the order the connection would carry them, one entry a write.
 */
export class FakeSocket implements HubSocket, FrameSink {
  readyState = 1;
  bufferedAmount = 0;
  readonly writes: Record<string, unknown>[][] = [];
  private readonly listeners = new Map<string, (...args: unknown[]) => void>();
  send(data: string): void {
    this.writes.push([JSON.parse(data) as Record<string, unknown>]);
  }
  write(frame: Buffer): unknown {
    this.writes.push(frameMessages(frame));
    return true;
  }
  ping(): void {}
  terminate(): void {
    this.readyState = 3;
  }
  close(): void {}
  on(event: string, listener: (...args: never[]) => void): unknown {
    this.listeners.set(event, listener as (...args: unknown[]) => void);
    return this;
  }
  say(command: unknown): void {
    this.listeners.get('message')?.(Buffer.from(JSON.stringify(command)), false);
  }
  /** the messages in the order they reached the connection */
  messages(): Record<string, unknown>[] {
    return this.writes.flat();
  }
}
