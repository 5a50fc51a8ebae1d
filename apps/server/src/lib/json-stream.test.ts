import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonStreamError, JsonStreamReader, MAX_TOKEN_BYTES } from './json-stream.js';

/** Feeds `text`'s UTF-8 bytes to a reader in pieces cut at `cuts` (byte offsets, any order). */
function read(
  text: string | Buffer,
  cuts: number[] = [],
  stream: (path: readonly string[]) => boolean = () => false,
  element: (path: readonly string[], value: unknown) => void = () => undefined,
): unknown {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const reader = new JsonStreamReader({ stream, element });
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    reader.write(bytes.subarray(from, cut));
    from = cut;
  }
  return reader.end();
}

const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe('JsonStreamReader', () => {
  it('builds what JSON.parse builds, wherever the chunks are cut', () => {
    fc.assert(
      fc.property(fc.jsonValue(), cuts, fc.boolean(), (value, at, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(read(text, at)).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('reads escapes, non-ASCII text and lone surrogates cut anywhere, as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), cuts, (s, at) => {
        const text = JSON.stringify({ s, t: [s, 1] });
        expect(read(text, at)).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
    const raw = '{"a":"\\u00e9\\n\\"","b":"東京","c":-1.5e3,"d":0,"e":[true,false,null],"__proto__":1}';
    expect(read(raw, [3, 9, 20, 24])).toStrictEqual(JSON.parse(raw));
    expect(Object.getPrototypeOf(read(raw))).toBe(Object.prototype);
  });

  it('streams the arrays chosen, one element at a time, and leaves them out of their parent', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), cuts, (items, at) => {
        const text = JSON.stringify({ a: 1, list: items, data: { list: [1, 2], deep: { list: [3] } } });
        const seen: Array<[string, unknown]> = [];
        const root = read(
          text,
          at,
          (path) => path[path.length - 1] === 'list',
          (path, value) => seen.push([path.join('.'), value]),
        );
        expect(root).toStrictEqual({ a: 1, data: { deep: { list: [3] } } });
        expect(seen).toStrictEqual([
          ...items.map((v): [string, unknown] => ['list', JSON.parse(JSON.stringify(v)) as unknown]),
          ['data.list', 1],
          ['data.list', 2],
        ]);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses what JSON.parse refuses, with the byte where it stopped', () => {
    const bad = [
      '',
      '{',
      '{"a":1,}',
      '[1,]',
      '[1 2]',
      '{"a" 1}',
      '{1:2}',
      '01',
      '-',
      '1.',
      '.5',
      '1e',
      '+1',
      'tru',
      'nul',
      '"abc',
      '"a\u0001b"',
      '"\\x"',
      '{"a":1}}',
      '{"a":1} 2',
      '[}',
      "{'a':1}",
      'NaN',
    ];
    for (const text of bad) {
      expect(() => {
        JSON.parse(text);
      }, text).toThrow();
      for (const at of [[], [1], [2, 3]]) expect(() => read(text, at), text).toThrow(JsonStreamError);
    }
    expect(() => read('{"a":[1,2,x]}')).toThrow('at byte 10');
  });

  it('refuses to carry one value longer than its limit across chunks', () => {
    const long = `["${'a'.repeat(2 * MAX_TOKEN_BYTES)}"]`;
    // in chunks of 64 KiB, as a file is read: the unfinished string grows past the limit
    const chunks = Array.from({ length: 40 }, (_, k) => (k + 1) * 65_536);
    expect(() => read(long, chunks)).toThrow(JsonStreamError);
    // in one chunk nothing is carried, and the value is read
    expect(read(long)).toHaveLength(1);
    const fits = `["${'a'.repeat(1000)}"]`;
    expect(read(fits, [10, 500])).toStrictEqual(JSON.parse(fits));
  });
});
