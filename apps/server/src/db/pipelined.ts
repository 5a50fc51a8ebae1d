import type { TablesRelationalConfig } from 'drizzle-orm';
import {
  NodePgSession,
  NodePgTransaction,
  type NodePgQueryResultHKT,
  type NodePgSessionOptions,
} from 'drizzle-orm/node-postgres';
import type { PgSession, PgTransactionConfig } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import {
  clientQuery,
  clientStream,
  nodePgSessionInternals,
  type CorkableStream,
} from './driver-internals.js';
import type { Tx } from './types.js';

/**
 * Transactions on node-postgres that write their BEGIN together with their first statement, and can write
 * their COMMIT together with their last (ADR 0015): an order's two statements (ADR 0016) are then two round
 * trips to PostgreSQL and two writes to its socket, not four.
 *
 * The pool's clients run in node-postgres's pipeline mode: a query is written to the socket when it is
 * issued, not when the one before it has been answered, and PostgreSQL answers them in order. While a
 * transaction holds a client, the client's `query` is this module's: the first query of the transaction is
 * written in one piece with a BEGIN in front of it, so a transaction that runs nothing sends nothing. A
 * statement run with `commit: true` (src/db/statement.ts) is written in one piece with the COMMIT behind
 * it; if the statement fails, PostgreSQL ends the aborted transaction on that COMMIT with a rollback, and
 * nothing is written. Either way the transaction is over, and any further query on it is refused instead of
 * running outside it.
 *
 * Everything else is drizzle's own transaction (NodePgSession.transaction): one pool client for the
 * transaction, its queries and logger, ROLLBACK when the work throws, the client released at the end.
 */

type Query = (...args: unknown[]) => Promise<unknown>;
type Logger = NodePgSessionOptions['logger'];

/** A transaction on one pool client. */
class Transaction {
  /** the BEGIN's answer, once it has been written */
  begun: Promise<unknown> | undefined;
  /** the COMMIT's answer, once it has been written behind the last statement */
  committed: Promise<unknown> | undefined;
  private readonly send: Query;
  private readonly stream: CorkableStream | undefined;

  constructor(
    client: pg.PoolClient,
    private readonly logger: Logger | undefined,
  ) {
    // The client's own query, on its prototype; the transaction puts its own on the client (`query`).
    this.send = clientQuery(client);
    this.stream = clientStream(client);
  }

  /** Runs `write`, whose queries go to the socket in one piece when it returns. */
  private together<R>(write: () => R): R {
    this.stream?.cork();
    try {
      return write();
    } finally {
      this.stream?.uncork();
    }
  }

  /** The client's query while the transaction holds it. */
  readonly query: Query = (...args) => {
    if (this.committed) refuse();
    if (this.begun) return this.send(...args);
    return this.together(() => {
      this.logger?.logQuery('begin', []);
      this.begun = settled(this.send('begin'));
      return this.send(...args);
    });
  };

  /** Runs `query` (a query on this client) with the COMMIT written behind it. */
  async commitBehind<R>(query: () => Promise<R>): Promise<R> {
    if (this.committed) refuse();
    const [answer] = await this.together(() => {
      const result = query();
      this.logger?.logQuery('commit', []);
      this.committed = settled(this.send('commit'));
      return Promise.all([result, this.committed]);
    });
    return answer;
  }

  /** Ends the transaction after its work: the COMMIT, unless it was written already or nothing ran. */
  async commit(): Promise<void> {
    if (!this.begun) return;
    await this.begun;
    if (this.committed) {
      await this.committed;
      return;
    }
    this.logger?.logQuery('commit', []);
    await this.send('commit');
  }

  /**
   * Ends the transaction after its work threw: ROLLBACK, unless a COMMIT was written already (whatever
   * happened to the statement before it, that COMMIT ended the transaction) or nothing ran. Answers false
   * when the client is broken and must not go back to the pool.
   */
  async rollback(): Promise<boolean> {
    if (!this.begun) return true;
    if (this.committed) {
      await this.committed.catch(() => undefined);
      return true;
    }
    this.logger?.logQuery('rollback', []);
    return this.send('rollback').then(
      () => true,
      () => false,
    );
  }
}

/** A promise whose rejection is handled by whoever awaits it later, not reported as unhandled now. */
function settled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

const transactions = new WeakMap<object, Transaction>();

function refuse(): never {
  throw new Error('the transaction was committed behind its last statement; run nothing after it');
}

/** db.transaction for a node-postgres database whose pool runs in pipeline mode. */
export async function pipelinedTransaction<T>(
  base: PgSession<NodePgQueryResultHKT, Record<string, unknown>, TablesRelationalConfig>,
  work: (tx: Tx) => Promise<T>,
  config?: PgTransactionConfig,
): Promise<T> {
  // A transaction with its own isolation level or access mode (none in this code base) is drizzle's.
  if (config) return base.transaction(work as never, config);
  const { client: pool, dialect, schema, options } = nodePgSessionInternals(base);
  const client = await pool.connect();
  // While checked out a pool client has no 'error' listener (pg-pool removes its own), and node-postgres
  // emits 'error' when the connection drops (the database restarting, a backend terminated): unheard, it
  // would end the process. The transaction's queries fail on their own; the client is destroyed on release.
  let healthy = true;
  const onConnectionError = () => {
    healthy = false;
  };
  client.on('error', onConnectionError);
  const transaction = new Transaction(client, options.logger);
  transactions.set(client, transaction);
  Object.defineProperty(client, 'query', { value: transaction.query, configurable: true, writable: true });
  const session = new NodePgSession(client, dialect, schema, options);
  const tx = new NodePgTransaction(dialect, session, schema);
  try {
    const result = await work(tx as unknown as Tx);
    await transaction.commit();
    return result;
  } catch (error) {
    healthy = (await transaction.rollback()) && healthy;
    throw error;
  } finally {
    client.removeListener('error', onConnectionError);
    transactions.delete(client);
    delete (client as { query?: unknown }).query;
    // A client whose ROLLBACK failed is broken: destroyed rather than handed to the next request.
    client.release(!healthy);
  }
}

/**
 * Runs `query` (a query on `client`) with its transaction's COMMIT written right behind it, and answers the
 * query's result once both are answered. When `client` is not a pipelined transaction's (PGlite, or the
 * pool outside a transaction), runs the query alone, and a transaction commits as usual at its end.
 */
export function committedBehind<R>(client: unknown, query: () => Promise<R>): Promise<R> {
  const transaction = typeof client === 'object' && client ? transactions.get(client) : undefined;
  return transaction ? transaction.commitBehind(query) : query();
}
