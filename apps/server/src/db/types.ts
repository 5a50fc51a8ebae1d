import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.js';

/**
 * The database's types, for the code that runs queries: types only, so importing them loads nothing.
 * Opening a database (PGlite or PostgreSQL) is src/db/client.ts's job; nothing that only runs queries
 * imports it.
 */
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** What a service receives: the database or a transaction on it. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

/** An open database, as src/db/client.ts's openDatabase answers it. */
export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /**
   * PGlite on a data folder opened with templates: whether the folder was there, copied from the build's
   * migrated template, or made by initdb (src/db/template.ts).
   */
  origin?: 'existing' | 'template' | 'initdb';
  migrate(): Promise<void>;
  ping(): Promise<number>;
  close(): Promise<void>;
}
