import { createHash } from 'node:crypto';
import { and, eq, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER } from '@kabuto/contract';
import type { Db, Tx } from '../db/types.js';
import { run, statement, type Statement } from '../db/statement.js';
import { idempotencyKeys } from '../db/schema.js';
import { takeLedgerRow, userLockCte, type LedgerRead, type LedgerRow } from '../modules/ledger/ledger.js';
import { AppError } from '../lib/app-error.js';

const KEY_FORMAT = /^[A-Za-z0-9_-]{8,100}$/;

type ClaimParams = { userId: number; key: string; hash: string };
type ClaimRow = LedgerRow & { key: string | null };
const claimStatements = new Map<string, Statement<ClaimParams, ClaimRow>>();

/**
 * Takes the user's lock and reads the user's ledger (userLockCte, drawing ids of the tables in `draw`), then
 * claims the key (the claim's value reads the locked row), in one statement. `key` is null when the key was
 * there already.
 */
function claimStatement(draw: readonly PgTable[]): Statement<ClaimParams, ClaimRow> {
  const name = ['idempotency_claim', ...draw.map((table) => getTableName(table))].join('_');
  let found = claimStatements.get(name);
  if (!found) {
    found = statement<ClaimParams, ClaimRow>(
      name,
      (p) => `with ${userLockCte(p, draw)},
        claimed as (
          insert into idempotency_keys (user_id, key, request_hash, status_code, response)
          values ((select id from locked_user), ${p('key')}::text, ${p('hash')}::text, 0, '')
          on conflict do nothing
          returning key
        )
        select l.*, c.key from locked_user l left join claimed c on true`,
    );
    claimStatements.set(name, found);
  }
  return found;
}

/**
 * A claimed key while its request runs. A service that writes its changes in one statement of its own
 * can store the answer there too (answerCte, answerValues), which sets `answer`; otherwise idempotent
 * stores the request's result after it. Nothing runs in the transaction after the statement that stores
 * the answer, so that statement can carry the COMMIT (`run(..., { commit: true })`, ADR 0015).
 */
export interface Claim<T> {
  readonly userId: number;
  readonly key: string;
  answer?: T;
  /**
   * The user's ledger as the claim read it under the lock, with the ids drawn for the tables of `draw`
   * (idempotent's option). It is current until the request moves money: take it (takeClaimedLedger) before
   * anything else.
   */
  ledger?: { read: LedgerRead; draw: readonly PgTable[] };
}

/**
 * The ledger the claim read, if it drew ids for exactly the tables of `draw`; once: afterwards, or when it
 * drew for other tables, the caller reads it itself (readLedger).
 */
export function takeClaimedLedger(
  claim: Claim<unknown> | undefined,
  draw: readonly PgTable[],
): LedgerRead | undefined {
  const ledger = claim?.ledger;
  if (claim) delete claim.ledger;
  const same = ledger?.draw.length === draw.length && ledger.draw.every((table, i) => table === draw[i]);
  return same ? ledger.read : undefined;
}

/** The values of answerCte's parameters. */
export interface AnswerParams extends Record<string, unknown> {
  answerUser: number | null;
  answerKey: string | null;
  answerJson: string | null;
}

/**
 * Stores a claimed key's answer as a data-modifying CTE (`answered`) of the caller's statement
 * (src/db/statement.ts); with null values (no claim) it changes nothing.
 */
export function answerCte(p: (name: keyof AnswerParams & string) => string): string {
  return `answered as (
      update idempotency_keys set status_code = 200, response = ${p('answerJson')}::text
      where user_id = ${p('answerUser')}::int and key = ${p('answerKey')}::text
    )`;
}

/** answerCte's values that store `answer` as the claim's answer; the claim then answers it. */
export function answerValues<T>(claim: Claim<T>, answer: T): AnswerParams {
  claim.answer = answer;
  return { answerUser: claim.userId, answerKey: claim.key, answerJson: JSON.stringify(answer) };
}

/** answerCte's values outside an idempotent request: nothing is stored. */
export const NO_ANSWER: AnswerParams = { answerUser: null, answerKey: null, answerJson: null };

/** Stores the answer of the claimed key. */
const answerStatement = statement<{ userId: number; key: string; response: string }>(
  'idempotency_answer',
  (p) => `update idempotency_keys set status_code = 200, response = ${p('response')}::text
    where user_id = ${p('userId')}::int and key = ${p('key')}::text`,
);

function requestHash(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? request.url;
  return createHash('sha256')
    .update(`${request.method} ${path} ${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/**
 * Runs a money-moving or order-creating request exactly once per Idempotency-Key (per user): the key is
 * claimed in the same transaction as the business change and stores the answer. The same key and body get
 * the first answer again; the same key with another body is refused; a concurrent duplicate waits on the
 * key's row until the first commits, then gets its answer. A failed request leaves no key behind (its
 * transaction rolled back), so it can be retried.
 */
export async function idempotent<T>(
  db: Db,
  request: FastifyRequest,
  userId: number,
  work: (tx: Tx, claim: Claim<T>) => Promise<T>,
  options: { draw?: readonly PgTable[] } = {},
): Promise<T> {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !KEY_FORMAT.test(key)) throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  const hash = requestHash(request);
  return db.transaction(async (tx) => {
    // The user's lock and ledger first (every money transaction of a user takes it before anything else),
    // then the claim of the key, in one statement.
    const draw = options.draw ?? [];
    const [row] = await run(tx, claimStatement(draw), { userId, key, hash });
    const read = takeLedgerRow(tx, userId, row, { draw, locked: true });
    if (!row?.key) {
      const [first] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      if (!first || first.requestHash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      return JSON.parse(first.response) as T;
    }
    const claim: Claim<T> = { userId, key, ledger: { read, draw } };
    const result = await work(tx, claim);
    if (claim.answer === undefined) {
      await run(tx, answerStatement, { userId, key, response: JSON.stringify(result) });
    }
    return result;
  });
}
