import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { describeNeeding } from '../test/needs.js';
import { clearProbes, createProbeTable, insertProbe as insert, probeIds } from '../test/pipelined-probe.js';
import { postgresWritesDuring } from '../test/socket-writes.js';
import type { Tx } from './types.js';
import { run } from './statement.js';

/**
 * Pipelined transactions on PostgreSQL (src/db/pipelined.ts, ADR 0015): one write per round trip, and
 * nothing after the COMMIT. `npm test` runs this file in its PostgreSQL step (scripts/test.mjs); without
 * TEST_DATABASE_URL the suite is reported as not run (test/needs.ts).
 */
let t: TestApp;

const ids = () => probeIds(t.database.db);
const clear = () => clearProbes(t.database.db);

describeNeeding('postgres', 'pipelined transactions on PostgreSQL', () => {
  beforeAll(async () => {
    t = await createTestApp();
    await createProbeTable(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

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
