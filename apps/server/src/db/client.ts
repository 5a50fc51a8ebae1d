import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { pipelinedTransaction } from './pipelined.js';
import * as schema from './schema.js';
import {
  hasDatabase,
  makeTemplate,
  migrationsFolder,
  restoreTemplate,
  type DataFolderOrigin,
} from './template.js';
import type { Database, Db, Tx } from './types.js';

export type { Database } from './types.js';
export { migrationsFolder } from './template.js';

/** Any 64-bit number; all server processes agree on it so that only one migrates at a time. */
const MIGRATION_LOCK = 7_245_101;

export interface DatabaseOptions {
  /** A postgres:// URL; when absent an embedded PGlite database is used. */
  url?: string | undefined;
  /** PGlite's data folder; when absent PGlite runs in memory. */
  dataDir?: string | undefined;
  /**
   * An in-memory PGlite starts from this image of a data folder (PGlite's dumpDataDir) instead of creating
   * an empty cluster: the test harness's migrated template (src/test/pglite-template.ts).
   */
  template?: Blob | undefined;
  /**
   * With `dataDir`: the folder of migrated data-folder templates made by `npm run build` (src/db/template.ts,
   * ADR 0046). A new data folder is then a copy of the template of the current migrations and PGlite, when
   * there is one, instead of a new initdb. Absent: always initdb.
   */
  templates?: string | undefined;
  poolSize?: number;
  /** How long a query waits for a connection (pool full, or the server not answering) before it fails, in ms. */
  connectTimeoutMs?: number;
  /** The server cancels a statement running longer than this, in ms (0: never). */
  statementTimeoutMs?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    // Connections stay open once made: pg's default closes one idle for 10 s, and under a steady load
    // (which reuses the few most recent) the rest then close, so the next burst waited for new
    // connections, each a new server backend that prepares its statements again (bench/README.md).
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      idleTimeoutMillis: 0,
      // A black-holed database must not pile requests up (ADR 0032): a query waits at most this long for a
      // connection, then fails and the request answers 503; a statement runs at most statement_timeout.
      connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      // Transactions do not wait for their BEGIN, and the order path writes its COMMIT behind its last
      // statement (src/db/pipelined.ts, ADR 0015).
      pipeline: true,
    });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const pgDb = drizzlePg(pool, { schema });
    const session = pgDb._.session;
    const db = Object.assign(pgDb, {
      transaction: <T>(work: (tx: Tx) => Promise<T>, config?: PgTransactionConfig) =>
        pipelinedTransaction(session, work, config),
    }) as unknown as Db;
    return {
      db,
      driver: 'postgres',
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
          client.release();
        }
      },
      ping: () => timed(() => db.execute(sql`select 1`)),
      close: () => pool.end(),
    };
  }
  let origin: DataFolderOrigin | undefined;
  if (options.dataDir) {
    origin = options.templates
      ? restoreTemplate(options.dataDir, options.templates)
      : hasDatabase(options.dataDir)
        ? 'existing'
        : 'initdb';
    mkdirSync(options.dataDir, { recursive: true });
  }
  const client = options.dataDir
    ? new PGlite(options.dataDir)
    : new PGlite(options.template ? { loadDataDir: options.template } : {});
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    ...(origin ? { origin } : {}),
    async migrate() {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    },
    ping: () => timed(() => db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}

/**
 * Makes the build's migrated PGlite template in `templates` (`npm run build`, src/scripts/pglite-template.ts,
 * ADR 0046): a data folder made by initdb, migrated, closed. Nothing to do when it is already there.
 */
export function makePgliteTemplate(templates?: string): Promise<{ path: string; made: boolean }> {
  return makeTemplate(async (dataDir) => {
    const database = await openDatabase({ dataDir });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  }, templates);
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
