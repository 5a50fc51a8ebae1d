import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { postgresWritesDuring } from '../test/socket-writes.js';
import type { Tx } from './client.js';
import { run, statement } from './statement.js';

/**
 * Transactions whose BEGIN goes with their first statement and whose COMMIT can go with their last
 * (src/db/pipelined.ts, ADR 0015). What a transaction does is the same on both databases; how many writes
 * it takes to PostgreSQL is checked on PostgreSQL (TEST_DATABASE_URL).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.execute(sql`create table pipelined_probe (id int primary key)`);
});
afterAll(() => t.close());

const insert = statement<{ id: number }, { id: number }>(
  'test_pipelined_insert',
  (p) => `insert into pipelined_probe (id) values (${p('id')}::int) returning id`,
);

const all = statement<Record<string, never>, { id: number }>(
  'test_pipelined_all',
  () => 'select id from pipelined_probe order by id',
);

async function ids(): Promise<number[]> {
  return (await run(t.database.db, all, {})).map((r) => r.id);
}

async function clear(): Promise<void> {
  await t.database.db.execute(sql`delete from pipelined_probe`);
}

const fail = (message: string) => {
  throw new Error(message);
};

describe('transactions', () => {
  it('a statement run with commit: true is the last of a committed transaction, and answers its rows', async () => {
    await clear();
    const rows = await t.database.db.transaction(async (tx) => {
      await run(tx, insert, { id: 1 });
      return run(tx, insert, { id: 2 }, { commit: true });
    });
    expect(rows).toEqual([{ id: 2 }]);
    expect(await ids()).toEqual([1, 2]);
  });

  it('when that statement fails, nothing of its transaction stays, and the pool goes on', async () => {
    await clear();
    await t.database.db.execute(sql`insert into pipelined_probe (id) values (7)`);
    // More transactions than the pool has connections: each connection has had a failed one before.
    for (let i = 0; i < 6; i++) {
      await expect(
        t.database.db.transaction(async (tx) => {
          await run(tx, insert, { id: 100 + i });
          return run(tx, insert, { id: 7 }, { commit: true }); // the key exists
        }),
      ).rejects.toThrow(/duplicate key/);
    }
    expect(await ids()).toEqual([7]);
    await t.database.db.transaction((tx) => run(tx, insert, { id: 8 }, { commit: true }));
    expect(await ids()).toEqual([7, 8]);
  });

  it('work that throws rolls its transaction back', async () => {
    await clear();
    await expect(
      t.database.db.transaction(async (tx) => {
        await run(tx, insert, { id: 3 });
        await tx.execute(sql`insert into pipelined_probe (id) values (4)`);
        fail('refused after two inserts');
      }),
    ).rejects.toThrow('refused after two inserts');
    expect(await ids()).toEqual([]);
  });

  it('a transaction that runs nothing answers its value, and one that throws before any statement its error', async () => {
    expect(await t.database.db.transaction(() => Promise.resolve('nothing ran'))).toBe('nothing ran');
    await expect(t.database.db.transaction(() => Promise.reject(new Error('early')))).rejects.toThrow(
      'early',
    );
    // The connections are still usable.
    await clear();
    await t.database.db.transaction((tx) => run(tx, insert, { id: 5 }));
    expect(await ids()).toEqual([5]);
  });
});

describe.runIf(process.env['TEST_DATABASE_URL'])('pipelined transactions on PostgreSQL', () => {
  it('writes BEGIN with the first statement and COMMIT with the last: one write per round trip', async () => {
    await clear();
    const three = (tx: Tx, commit: boolean) => async () => {
      await run(tx, insert, { id: commit ? 10 : 20 });
      await run(tx, insert, { id: commit ? 11 : 21 });
      await run(tx, insert, { id: commit ? 12 : 22 }, { commit });
    };
    // begin + 1st, 2nd, 3rd + commit
    expect(await postgresWritesDuring(() => t.database.db.transaction((tx) => three(tx, true)()))).toBe(3);
    // begin + 1st, 2nd, 3rd, commit
    expect(await postgresWritesDuring(() => t.database.db.transaction((tx) => three(tx, false)()))).toBe(4);
    // nothing to begin, nothing to end
    expect(await postgresWritesDuring(() => t.database.db.transaction(() => Promise.resolve(1)))).toBe(0);
    expect(await ids()).toEqual([10, 11, 12, 20, 21, 22]);
  });

  it('refuses a statement after the COMMIT instead of running it outside the transaction', async () => {
    await clear();
    // drizzle reports the refusal as the cause of its own error
    const refusal = (error: Error) =>
      /committed behind its last statement/.test(`${error.message} ${String(error.cause)}`);
    await expect(
      t.database.db.transaction(async (tx) => {
        await run(tx, insert, { id: 30 }, { commit: true });
        await tx.execute(sql`insert into pipelined_probe (id) values (31)`);
      }),
    ).rejects.toSatisfy(refusal);
    await expect(
      t.database.db.transaction(async (tx) => {
        await run(tx, insert, { id: 32 }, { commit: true });
        await run(tx, insert, { id: 33 }, { commit: true });
      }),
    ).rejects.toSatisfy(refusal);
    // What was committed stays; what came after ran nowhere.
    expect(await ids()).toEqual([30, 32]);
  });
});
