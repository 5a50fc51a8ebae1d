import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../plugins/errors.js';
import { describeNeeding } from '../test/needs.js';
import { openDatabase, type Database } from './client.js';

/**
 * A connection dropped inside a transaction (issue 22, ADR 0032), on PostgreSQL itself: the transaction fails
 * as unavailable (a 503 upstream), the process lives on, and the pool goes on serving. Its own file, named
 * *.postgres.test.ts, so that it runs in the PostgreSQL step (scripts/test.mjs) and not in the PGlite one.
 */
describeNeeding('postgres', 'a connection dropped inside a transaction', (serverUrl) => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ url: serverUrl, poolSize: 2 });
  });
  afterAll(() => database.close());

  it('fails that transaction as unavailable without ending the process, and the pool goes on', async () => {
    // the backend of the checked-out connection is terminated while the transaction's work awaits (as when
    // the database restarts): node-postgres emits 'error' on the client, which nobody else listens to then
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      const failure = await database.db
        .transaction(async (tx) => {
          const result = (await tx.execute(sql`select pg_backend_pid() as pid`)) as {
            rows: { pid: number }[];
          };
          const [row] = result.rows;
          await admin.query('select pg_terminate_backend($1)', [row?.pid]);
          await new Promise((resolve) => setTimeout(resolve, 200));
          await tx.execute(sql`select 1`);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(failure).not.toBeNull();
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(await database.ping()).toBeGreaterThanOrEqual(0);
    } finally {
      await admin.end();
    }
  });
});
