import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { run, statement } from './statement.js';

describe('statement', () => {
  it('numbers named parameters in the order they first appear, the same name the same number', () => {
    const s = statement<{ a: number; b: string }>(
      'test_numbering',
      (p) => `select ${p('b')}, ${p('a')}, ${p('b')}`,
    );
    expect(s.text).toBe('select $1, $2, $1');
    expect(s.order).toEqual(['b', 'a']);
  });
});

describe('run', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const echo = statement<
    { n: number; list: (number | null)[]; at: Date },
    { n: number; total: string; at: Date }
  >(
    'test_echo',
    (
      p,
    ) => `select ${p('n')}::int as n, (select coalesce(sum(x), 0)::text from unnest(${p('list')}::int[]) x) as total,
      ${p('at')}::timestamptz as at`,
  );

  it('runs on the database and inside a transaction, the same statement many times, with arrays and dates', async () => {
    const at = new Date('2026-11-24T01:00:00.123Z');
    for (let i = 0; i < 3; i++) {
      expect(await run(t.database.db, echo, { n: i, list: [1, null, 2], at })).toEqual([
        { n: i, total: '3', at },
      ]);
    }
    const inside = await t.database.db.transaction((tx) => run(tx, echo, { n: 7, list: [], at }));
    expect(inside).toEqual([{ n: 7, total: '0', at }]);
  });

  it("runs in the caller's transaction: what it writes goes when the transaction rolls back", async () => {
    const write = statement<{ code: string }>(
      'test_write',
      (p) => `insert into invitation_codes (code, kind) values (${p('code')}::text, 'campaign')`,
    );
    const seen = statement<{ code: string }, { n: number }>(
      'test_seen',
      (p) => `select count(*)::int as n from invitation_codes where code = ${p('code')}::text`,
    );
    await expect(
      t.database.db.transaction(async (tx) => {
        await run(tx, write, { code: 'ROLLBACK1' });
        expect(await run(tx, seen, { code: 'ROLLBACK1' })).toEqual([{ n: 1 }]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await run(t.database.db, seen, { code: 'ROLLBACK1' })).toEqual([{ n: 0 }]);
  });
});
