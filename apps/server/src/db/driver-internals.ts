import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { NodePgSession, NodePgSessionOptions } from 'drizzle-orm/node-postgres';
import type { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Executor } from './types.js';

/**
 * Every place where the server reaches past a driver's public API: fields of drizzle's database, session
 * and transaction objects, and of node-postgres's client. Nothing else in src/ casts a driver object to reach
 * such a field. The names and shapes here are those of the versions driverVersions() reads; a driver upgrade
 * that changes one of them fails driver-internals.test.ts (on PGlite and, with TEST_DATABASE_URL, on
 * PostgreSQL) with a message that names the versions and the field.
 */

/** The logger drizzle hands every statement to (its Logger's one method). */
export interface QueryLogger {
  logQuery(query: string, params: unknown[]): void;
}

/**
 * drizzle's session under a database or transaction (`_.session`): its driver client (a pg.Pool, a pg
 * client, a PGlite instance or a PGlite transaction), its logger, and the options its transactions copy.
 */
export interface DriverSession {
  client: unknown;
  logger?: QueryLogger;
  options?: { logger?: unknown };
}

export function sessionOf(db: Executor): DriverSession {
  return (db as unknown as { _: { session: DriverSession } })._.session;
}

/**
 * The object drizzle makes once per database and hands to every transaction it opens (its PgDialect), so a
 * memory per database can be keyed by it; undefined when there is none.
 */
export function dialectOf(db: Executor): object | undefined {
  const dialect = (db as unknown as { dialect?: unknown }).dialect;
  return typeof dialect === 'object' && dialect !== null ? dialect : undefined;
}

/**
 * Replaces the logger of a database's or a transaction's session, and with `transactions` the logger of the
 * transactions opened afterwards (their sessions are made with the database session's options); answers
 * what puts the old ones back. For tests that count statements.
 */
export function replaceLogger(
  db: Executor,
  logger: QueryLogger,
  options: { transactions?: boolean } = {},
): () => void {
  const session = sessionOf(db);
  const before = { logger: session.logger, options: session.options?.logger };
  session.logger = logger;
  if (options.transactions && session.options) session.options.logger = logger;
  return () => {
    session.logger = before.logger;
    if (session.options) session.options.logger = before.options;
  };
}

/** NodePgSession's fields that a transaction on one of its pool's clients needs (src/db/pipelined.ts). */
export interface NodePgSessionInternals {
  client: pg.Pool;
  dialect: PgDialect;
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: NodePgSessionOptions;
}

export function nodePgSessionInternals(session: object): NodePgSessionInternals {
  return session as unknown as NodePgSessionInternals;
}

type Query = (...args: unknown[]) => Promise<unknown>;

/** node-postgres's own query of `client` (on pg.Client's prototype), whatever the client's `query` is now. */
export function clientQuery(client: pg.ClientBase): Query {
  return (...args) => (pg.Client.prototype.query as unknown as Query).apply(client, args);
}

/** What can hold a client's writes back and send them in one piece. */
export interface CorkableStream {
  cork(): void;
  uncork(): void;
}

/** The socket of a node-postgres client (its connection's stream), once connected. */
export function clientStream(client: pg.ClientBase): CorkableStream | undefined {
  return (client as unknown as { connection?: { stream?: CorkableStream } }).connection?.stream;
}

const require = createRequire(import.meta.url);

/** The installed versions of the drivers whose internals this file reaches. */
export function driverVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of ['drizzle-orm', 'pg', '@electric-sql/pglite']) {
    let dir = dirname(require.resolve(name));
    for (;;) {
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
          name?: string;
          version?: string;
        };
        if (manifest.name === name) {
          versions[name] = manifest.version ?? '?';
          break;
        }
      } catch {
        // no package.json here: look further up
      }
      const up = dirname(dir);
      if (up === dir) {
        versions[name] = '?';
        break;
      }
      dir = up;
    }
  }
  return versions;
}
