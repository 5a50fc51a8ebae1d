import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { clearProbes, createProbeTable, insertProbe as insert, probeIds } from '../test/pipelined-probe.js';
import { run } from './statement.js';

/**
 * Transactions whose BEGIN goes with their first statement and whose COMMIT can go with their last
 * (src/db/pipelined.ts, ADR 0015): what a transaction does, the same on both databases. How many writes it
 * takes to PostgreSQL, and the refusal after its COMMIT: pipelined.postgres.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createProbeTable(t.database.db);
});
afterAll(() => t.close());

const ids = () => probeIds(t.database.db);
const clear = () => clearProbes(t.database.db);

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
