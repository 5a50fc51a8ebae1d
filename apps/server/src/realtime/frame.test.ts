import { describe, expect, it } from 'vitest';
import { readFrame, type ReadFrame } from '../test/ws-fakes.js';
import { textFrame } from './frame.js';

/** Reads a frame back, and checks that it is the whole buffer. */
function decode(frame: Buffer): Omit<ReadFrame, 'end'> {
  const { end, ...read } = readFrame(frame);
  expect(end).toBe(frame.length);
  return read;
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
