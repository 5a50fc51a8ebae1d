import { describe, expect, it } from 'vitest';
import { textFrame } from './frame.js';

/** Reads a server frame back (RFC 6455 §5.2): FIN and opcode, the payload length, the payload as text. */
function decode(frame: Buffer): { fin: boolean; opcode: number; masked: boolean; text: string } {
  const first = frame[0] ?? 0;
  const second = frame[1] ?? 0;
  let length = second & 0x7f;
  let offset = 2;
  if (length === 126) {
    length = frame.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    length = Number(frame.readBigUInt64BE(2));
    offset = 10;
  }
  expect(frame.length).toBe(offset + length);
  return {
    fin: (first & 0x80) !== 0,
    opcode: first & 0x0f,
    masked: (second & 0x80) !== 0,
    text: frame.subarray(offset).toString('utf8'),
  };
}

describe('a text frame built once for every subscriber', () => {
  it.each([
    ['a short message (7-bit length)', 'x'.repeat(125), 2],
    ['at 126 bytes (16-bit length)', 'x'.repeat(126), 4],
    ['at 65,535 bytes (16-bit length)', 'x'.repeat(65_535), 4],
    ['at 65,536 bytes (64-bit length)', 'x'.repeat(65_536), 10],
  ])('frames %s', (_name, text, header) => {
    const { frame } = textFrame(text);
    expect(frame.length).toBe(header + text.length);
    expect(decode(frame)).toEqual({ fin: true, opcode: 1, masked: false, text });
  });

  it('counts the length in UTF-8 bytes, not characters', () => {
    const text = JSON.stringify({ type: 'quote', quote: { code: '7203', name: 'トヨタ自動車' }, ts: 1 });
    const message = textFrame(text);
    expect(message.text).toBe(text);
    expect(Buffer.byteLength(text)).toBeGreaterThan(text.length);
    expect(decode(message.frame).text).toBe(text);
  });
});
