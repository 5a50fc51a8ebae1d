import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER } from '@kabuto/contract';
import type { Db, Tx } from '../db/types.js';
import { run, statement } from '../db/statement.js';
import { idempotencyKeys } from '../db/schema.js';
import { AppError } from '../lib/app-error.js';

const KEY_FORMAT = /^[A-Za-z0-9_-]{8,100}$/;

/** The values of keyClaimCte's parameters (and the user whose key it is). */
export interface ClaimParams extends Record<string, unknown> {
  userId: number;
  key: string;
  hash: string;
}

/**
 * Claims the key as a data-modifying CTE (`claimed`, answering `key`, or no row when the key was there
 * already) of the claimer's statement; `userId` is the SQL that gives the user's id, read from what the
 * statement took before (so the claim waits for it).
 */
export function keyClaimCte(p: (name: 'key' | 'hash') => string, userId: string): string {
  return `claimed as (
      insert into idempotency_keys (user_id, key, request_hash, status_code, response)
      values (${userId}, ${p('key')}::text, ${p('hash')}::text, 0, '')
      on conflict do nothing
      returning key
    )`;
}

/**
 * How a request's key is claimed: the first statement of the request's transaction, which takes what the
 * request must hold (for a money movement, the user's lock and ledger: the ledger's ledgerClaim) and claims
 * the key (keyClaimCte) in the same round trip. It answers whether the key was claimed, and what it holds for
 * the request (Claim's `held`).
 */
export type KeyClaimer<H> = (tx: Tx, params: ClaimParams) => Promise<{ claimed: boolean; held: H }>;

/**
 * A claimed key while its request runs. A service that writes its changes in one statement of its own
 * can store the answer there too (answerCte, answerValues), which sets `answer`; otherwise idempotent
 * stores the request's result after it. Nothing runs in the transaction after the statement that stores
 * the answer, so that statement can carry the COMMIT (`run(..., { commit: true })`, ADR 0015).
 */
export interface Claim<T, H = unknown> {
  readonly userId: number;
  readonly key: string;
  answer?: T;
  /** What the claimer holds for the request (the ledger's: the user's ledger as read under the lock). */
  held?: H;
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
 * claimed (by `claimer`, in its first statement) in the same transaction as the business change and stores
 * the answer. The same key and body get
 * the first answer again; the same key with another body is refused; a concurrent duplicate waits on the
 * key's row until the first commits, then gets its answer. A failed request leaves no key behind (its
 * transaction rolled back), so it can be retried.
 */
export async function idempotent<T, H>(
  db: Db,
  request: FastifyRequest,
  userId: number,
  claimer: KeyClaimer<H>,
  work: (tx: Tx, claim: Claim<T, H>) => Promise<T>,
): Promise<T> {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !KEY_FORMAT.test(key)) throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  const hash = requestHash(request);
  return db.transaction(async (tx) => {
    // What the request must hold first (every money transaction of a user takes the user's lock before
    // anything else), then the claim of the key, in one statement.
    const { claimed, held } = await claimer(tx, { userId, key, hash });
    if (!claimed) {
      const [first] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      if (!first || first.requestHash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      return JSON.parse(first.response) as T;
    }
    const claim: Claim<T, H> = { userId, key, held };
    const result = await work(tx, claim);
    if (claim.answer === undefined) {
      await run(tx, answerStatement, { userId, key, response: JSON.stringify(result) });
    }
    return result;
  });
}
