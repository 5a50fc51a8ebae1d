import { describe, expect, it } from 'vitest';
import { intArrayLiteral, textArrayLiteral } from './array-literal.js';
import { run, statement } from './statement.js';
import { createTestApp } from '../test/harness.js';

describe('array literals', () => {
  it('writes integers and NULLs, and refuses what is not a safe integer', () => {
    expect(intArrayLiteral([1, -2, null, 9_007_199_254_740_991])).toBe('{1,-2,NULL,9007199254740991}');
    expect(intArrayLiteral([])).toBe('{}');
    expect(() => intArrayLiteral([1.5])).toThrow(RangeError);
    expect(() => intArrayLiteral([2 ** 53])).toThrow(RangeError);
  });

  it('quotes only what needs it, and escapes quotes and backslashes', () => {
    expect(textArrayLiteral(['ab12', '2026-12-15T00:00:00.000Z', null])).toBe(
      '{ab12,2026-12-15T00:00:00.000Z,NULL}',
    );
    expect(textArrayLiteral(['NULL', 'null', '', 'a b', 'x,y', '{"q":"\\\\"}'])).toBe(
      '{"NULL","null","","a b","x,y","{\\"q\\":\\"\\\\\\\\\\"}"}',
    );
  });

  it('is read back by the database as the values it was made from', async () => {
    const t = await createTestApp();
    try {
      const texts = [
        'NULL',
        'null',
        '',
        ' lead',
        'trail ',
        'a b',
        'x,y',
        '{}',
        '"',
        '\\',
        'ü 日本',
        null,
        'plain',
      ];
      const ints = [0, -1, null, 9_007_199_254_740_991];
      // the literals are passed as the drivers pass any string parameter, then cast by the statement
      const textsBack = statement<{ a: string }, { t: string | null }>(
        'test_text_array_literal',
        (p) => `select t from unnest(${p('a')}::text[]) with ordinality as u(t, n) order by n`,
      );
      const intsBack = statement<{ a: string }, { v: string | null }>(
        'test_int_array_literal',
        (p) => `select v::text as v from unnest(${p('a')}::bigint[]) with ordinality as u(v, n) order by n`,
      );
      const db = t.database.db;
      expect((await run(db, textsBack, { a: textArrayLiteral(texts) })).map((r) => r.t)).toEqual(texts);
      const back = await run(db, intsBack, { a: intArrayLiteral(ints) });
      expect(back.map((r) => (r.v === null ? null : Number(r.v)))).toEqual(ints);
    } finally {
      await t.close();
    }
  }, 120_000);
});
