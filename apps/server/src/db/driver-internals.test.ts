import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import {
  clientQuery,
  clientStream,
  dialectOf,
  driverVersions,
  nodePgSessionInternals,
  replaceLogger,
  sessionOf,
} from './driver-internals.js';
import { run, statement } from './statement.js';
import type { Database } from './types.js';

/**
 * What src/db/driver-internals.ts reaches is still there, on PGlite and (with TEST_DATABASE_URL) on
 * PostgreSQL through node-postgres. A failure names the installed driver versions: a driver upgrade changed
 * a field the server reaches past the driver's API, and that file must follow it.
 */
const versions = Object.entries(driverVersions())
  .map(([name, version]) => `${name} ${version}`)
  .join(', ');

function must(ok: unknown, what: string): void {
  if (!ok) {
    throw new Error(
      `driver internals: ${what} is not so with ${versions}; update src/db/driver-internals.ts for this version`,
    );
  }
}

/** Whether `object` has a method `name` (read as a field, not called). */
const hasMethod = (object: unknown, name: string) =>
  typeof object === 'object' &&
  object !== null &&
  typeof (object as Record<string, unknown>)[name] === 'function';
const url = process.env['TEST_DATABASE_URL'];

const one = statement<{ n: number }, { n: number }>(
  'test_driver_internals_one',
  (p) => `select ${p('n')}::int as n`,
);

describe.each([
  { driver: 'pglite' as const, url: undefined },
  ...(url ? [{ driver: 'postgres' as const, url }] : []),
])('driver internals on $driver', ({ driver, url }) => {
  let database: Database;
  // Opening PGlite takes seconds on a busy machine.
  beforeAll(async () => {
    database = await openDatabase({ url });
  }, 120_000);
  afterAll(() => database.close());

  it('names the versions it checks', () => {
    expect(versions).toMatch(
      /drizzle-orm \d+\.\d+\.\d+, pg \d+\.\d+\.\d+, @electric-sql\/pglite \d+\.\d+\.\d+/,
    );
  });

  it("reaches drizzle's session, its client, logger and dialect, in the database and its transactions", async () => {
    expect(database.driver).toBe(driver);
    const { db } = database;
    const session = sessionOf(db);
    must(
      driver === 'pglite' ? session.client instanceof PGlite : session.client instanceof pg.Pool,
      `db._.session.client is the driver's ${driver === 'pglite' ? 'PGlite' : 'pg.Pool'}`,
    );
    must(hasMethod(session.logger, 'logQuery'), 'db._.session.logger.logQuery is a function');
    must(typeof session.options === 'object', 'db._.session.options is an object');
    const dialect = dialectOf(db);
    must(hasMethod(dialect, 'sqlToQuery'), 'db.dialect is a PgDialect');

    const logged: string[] = [];
    const restore = replaceLogger(db, { logQuery: (q) => logged.push(q) }, { transactions: true });
    try {
      await db.transaction(async (tx) => {
        const inner = sessionOf(tx);
        must(
          driver === 'pglite' ? hasMethod(inner.client, 'query') : inner.client instanceof pg.Client,
          `tx._.session.client is ${driver === 'pglite' ? 'a PGlite transaction (with query)' : 'a pg client'}`,
        );
        must(dialectOf(tx) === dialect, 'a transaction has its database dialect object (tx.dialect)');
        expect(await run(tx, one, { n: 7 })).toEqual([{ n: 7 }]);
        await tx.execute(sql`select 2`);
      });
    } finally {
      restore();
    }
    must(
      logged.some((q) => q.includes('::int as n')),
      "run's statement reaches the session's logger",
    );
    must(
      logged.some((q) => q.includes('select 2')),
      "drizzle's statement in a transaction reaches the replaced logger",
    );
    expect(await run(db, one, { n: 8 })).toEqual([{ n: 8 }]);
  });
});

// node-postgres's own fields, on PostgreSQL only (registered only when TEST_DATABASE_URL is set).
if (url) {
  describe('driver internals of node-postgres', () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase({ url });
    });
    afterAll(() => database.close());

    it("reaches node-postgres's session fields, a client's own query and its socket", async () => {
      const internals = nodePgSessionInternals(database.db._.session);
      must(internals.client instanceof pg.Pool, 'NodePgSession.client is the pg.Pool');
      must(hasMethod(internals.dialect, 'sqlToQuery'), 'NodePgSession.dialect is a PgDialect');
      must(typeof internals.options === 'object', 'NodePgSession.options is an object');
      must(typeof internals.schema === 'object', 'NodePgSession.schema is the relational schema');
      const client = await internals.client.connect();
      try {
        const stream = clientStream(client);
        must(
          hasMethod(stream, 'cork') && hasMethod(stream, 'uncork'),
          'pg client.connection.stream can cork',
        );
        const answer = (await clientQuery(client)('select 3 as n')) as { rows?: unknown };
        must(Array.isArray(answer.rows), 'pg.Client.prototype.query answers a result with rows');
      } finally {
        client.release();
      }
    });
  });
}
