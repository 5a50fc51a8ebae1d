import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TOrder } from '@kabuto/contract';
import { replaceLogger } from '../../db/driver-internals.js';
import { orders } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { postgresWritesDuring } from '../../test/socket-writes.js';
import { TestMarket } from '../../test/test-market.js';

/**
 * How many SQL statements an order costs (bench/README.md, `npm run bench:orders`): every statement is a
 * round trip holding one of the pool's connections, so the count is watched here. Counted through drizzle's
 * logger, which sees every statement the server sends except PGlite's own BEGIN and COMMIT (node-postgres
 * sends those through drizzle, so they are left out of the count on both drivers).
 */
let t: TestApp;
const sent: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' }, undefined, {
    market: (clock) => {
      const m = new TestMarket(clock);
      m.set('7203', 3100);
      return m;
    },
  });
  // The transactions' sessions are made with the database session's options, so its logger reaches them.
  replaceLogger(t.database.db, { logQuery: (query: string) => sent.push(query) }, { transactions: true });
});
afterAll(() => t.close());

async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  sent.length = 0;
  await run();
  return sent.filter((q) => !/^(begin|commit|rollback)\b/i.test(q.trim()));
}

const place = (token: string, key = randomUUID()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/trade/placeOrder',
    payload: { code: '7203', direction: 'long', price_type: 'market', quantity: 100, leverage: 1 },
    headers: { token, 'idempotency-key': key },
  });

describe('statements per order', () => {
  it('a market buy that fills at once', async () => {
    const u = await registerAndLogin(t);
    await place(u.token); // the first order of the process may open accounts and warm caches
    let answer: TOrder | undefined;
    const statements = await statementsOf(async () => {
      answer = body<TOrder>(await place(u.token)).data;
    });
    expect(answer?.status).toBe('filled');
    if (process.env['SHOW_STATEMENTS']) console.log(statements.join('\n'));
    console.log(`market buy: ${statements.length} statements (BEGIN and COMMIT not counted)`);
    // The session was read by the first order and is cached (ADR 0014): the lock with the ledger's read and
    // the key's claim (ADR 0016), the account and the cash holding the buy adds to (ADR 0021), then the write.
    expect(statements.length).toBe(3);
    expect(statements.some((q) => q.includes('from sessions'))).toBe(false);
    // On PostgreSQL each is one round trip: BEGIN goes with the first, COMMIT with the last (ADR 0015).
    if (t.database.driver === 'postgres') {
      expect(await postgresWritesDuring(() => place(u.token))).toBe(3);
    }

    // Once the cached copy has expired, the session is read again: one statement more.
    t.clock.advance(t.config.SESSION_CACHE_SECONDS * 1000);
    const uncached = await statementsOf(() => place(u.token));
    expect(uncached.filter((q) => q.includes('from sessions'))).toHaveLength(1);
    expect(uncached.length).toBe(4);
  });

  it('a replay of the same key', async () => {
    const u = await registerAndLogin(t);
    const key = randomUUID();
    await place(u.token, key);
    const statements = await statementsOf(() => place(u.token, key));
    console.log(`replay: ${statements.length} statements`);
    expect(statements.length).toBeLessThanOrEqual(2);
  });

  it('numbers an order in its insert: the UTC day and the id, at least 8 digits', async () => {
    const u = await registerAndLogin(t);
    const numberOf = async () => {
      const answer = body<TOrder>(await place(u.token)).data;
      const [row] = await t.database.db
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.orderNo, answer.order_no));
      return { orderNo: answer.order_no, id: row?.id ?? -1 };
    };
    const first = await numberOf();
    expect(first.orderNo).toBe(`20261124${String(first.id).padStart(8, '0')}`);
    await t.database.db.execute(sql`select setval(pg_get_serial_sequence('orders', 'id'), 123456788)`);
    expect(await numberOf()).toEqual({ orderNo: '20261124123456789', id: 123456789 });
  });
});
