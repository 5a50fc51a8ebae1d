import pg from 'pg';
import { sessionOf } from './driver-internals.js';
import { committedBehind } from './pipelined.js';
import type { Executor } from './types.js';

/**
 * A statement kept as SQL text, for the few statements every order runs (bench/README.md,
 * `npm run bench:order-cpu`): building them with drizzle's query builder on every call cost more of the
 * server's CPU than anything else on that path. The text is made once, from a template whose parameters
 * are named; a call passes the values by name. On PostgreSQL it runs as a named prepared statement (parsed
 * and planned once per connection); on PGlite as an ordinary parameterized query. It runs on the driver
 * under drizzle (inside the caller's transaction when given one) and is logged through drizzle's logger
 * like drizzle's own statements. The tables and columns it names are drizzle's schema's (src/db/schema.ts).
 * The integration tests run every statement on PGlite, and again on PostgreSQL when DATABASE_URL is set
 * (always in CI, where `npm test` refuses to start without it; locally its absence is named in a NOT RUN
 * banner).
 *
 * Results come back as the drivers give them: cast bigint and numeric columns to text (node-postgres and
 * PGlite differ on them) and convert in TypeScript.
 */
export interface Statement<Params extends Record<string, unknown>, Row> {
  readonly name: string;
  readonly text: string;
  /** the parameter names in $1, $2, ... order */
  readonly order: readonly (keyof Params & string)[];
  /** never set: carries the row type */
  readonly row?: Row;
}

/**
 * Makes a statement. `template` receives `p`, which answers the placeholder of a named parameter ($1, $2,
 * ... in the order names first appear; the same name twice is the same placeholder).
 */
export function statement<Params extends Record<string, unknown>, Row = never>(
  name: string,
  template: (p: (param: keyof Params & string) => string) => string,
): Statement<Params, Row> {
  const order: (keyof Params & string)[] = [];
  const text = template((param) => {
    let index = order.indexOf(param);
    if (index < 0) index = order.push(param) - 1;
    return `$${index + 1}`;
  });
  return { name, text: text.trim(), order };
}

interface QueryResult {
  rows: unknown[];
}

/** How run runs a statement. */
export interface RunOptions {
  /**
   * The statement is its transaction's last: on PostgreSQL the COMMIT is written right behind it and the
   * transaction is over when run answers (src/db/pipelined.ts); elsewhere the transaction commits as usual
   * at its end. Nothing may run on the transaction after it.
   */
  commit?: boolean;
}

/** Runs a statement on the database or transaction's own connection; answers its rows. */
export async function run<Params extends Record<string, unknown>, Row>(
  db: Executor,
  statement: Statement<Params, Row>,
  params: Params,
  options?: RunOptions,
): Promise<Row[]> {
  const session = sessionOf(db);
  const values = statement.order.map((name) => params[name]);
  session.logger?.logQuery(statement.text, values);
  const client = session.client;
  let result: QueryResult;
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    const query = () => client.query({ name: statement.name, text: statement.text, values });
    result = options?.commit ? await committedBehind(client, query) : await query();
  } else {
    // PGlite, or a PGlite transaction
    result = await (client as { query(text: string, values: unknown[]): Promise<QueryResult> }).query(
      statement.text,
      values,
    );
  }
  return result.rows as Row[];
}
