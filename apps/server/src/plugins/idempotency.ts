import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER } from '@kabuto/contract';
import type { Db, Tx } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';
import { noteLocked, userLockCte } from '../modules/ledger/ledger.js';
import { AppError } from '../lib/app-error.js';

const KEY_FORMAT = /^[A-Za-z0-9_-]{8,100}$/;

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
  run: (tx: Tx) => Promise<T>,
): Promise<T> {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !KEY_FORMAT.test(key)) throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  const hash = requestHash(request);
  return db.transaction(async (tx) => {
    // The user's lock first (every money transaction of a user takes it before anything else), then the
    // claim of the key, in one statement: the claim's value reads the locked row, so it runs once the lock
    // is held.
    const locked = userLockCte(tx, userId);
    const claimed = await tx
      .with(locked)
      .insert(idempotencyKeys)
      .values({
        userId: sql<number>`(select ${locked.id} from ${locked})`,
        key,
        requestHash: hash,
        statusCode: 0,
        response: '',
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    noteLocked(tx, userId);
    if (claimed.length === 0) {
      const [first] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      if (!first || first.requestHash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      return JSON.parse(first.response) as T;
    }
    const result = await run(tx);
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: 200, response: JSON.stringify(result) })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    return result;
  });
}
