import fc from 'fast-check';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, positions, postings } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { createTestApp, TEST_NOW, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { createUser } from '../auth/service.js';
import { ledgerLines } from '../ledger/lines.js';
import { ledgerHeadMismatches, userBalances } from '../ledger/ledger.js';
import { verifyStatement } from '../ledger/statement.js';
import { closePosition } from './close.js';
import { placeOrder } from './open.js';
import type { Outbox, TradingDeps } from './orders.js';
import { cancelOrder, matchPendingOrders } from './pending.js';

/**
 * Property: whatever users do (orders of every kind, cancels, partial closes, price moves, the market
 * opening and closing, the matcher), after every step every journal entry sums to zero, every balance (read
 * from the user's ledger head, ADR 0016) is the fold of its postings, every ledger head's chain head is its
 * chain's last posting, cash is never negative, reserved cash equals what pending orders hold, margin
 * equals the collateral of open positions, and every user's hash chain verifies.
 * PROPERTY_RUNS sets the number of random sequences: 60 in `npm test`; `npm run test:property` runs 10,000
 * (about ten minutes on these machines).
 */
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 60);

let t: TestApp;
let market: TestMarket;
let deps: TradingDeps;
beforeAll(async () => {
  t = await createTestApp({}, undefined, { market: (clock) => (market = new TestMarket(clock)) });
  deps = { clock: t.clock, market, fees: { bp: 10, min: 5_000, max: 100_000 }, locale: 'en' };
});
afterAll(() => t.close());

type Step =
  | {
      op: 'order';
      user: number;
      direction: 'long' | 'short';
      limit: boolean;
      offset: number;
      lots: number;
      leverage: number;
    }
  | { op: 'cancel'; user: number; pick: number }
  | { op: 'close'; user: number; pick: number; lots: number; limit: boolean; offset: number }
  | { op: 'move'; ticks: number }
  | { op: 'session'; open: boolean }
  | { op: 'match' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('order' as const),
      user: fc.nat(2),
      direction: fc.constantFrom('long' as const, 'short' as const),
      limit: fc.boolean(),
      offset: fc.integer({ min: -30, max: 30 }),
      lots: fc.integer({ min: 1, max: 12 }),
      leverage: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('cancel' as const), user: fc.nat(2), pick: fc.nat(10) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('close' as const),
      user: fc.nat(2),
      pick: fc.nat(10),
      lots: fc.integer({ min: 1, max: 6 }),
      limit: fc.boolean(),
      offset: fc.integer({ min: -30, max: 30 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('move' as const), ticks: fc.integer({ min: -60, max: 60 }) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('session' as const), open: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('match' as const) }) },
);

/** A sequence with a fill of each kind, a limit order that waits and one that is cancelled. */
const EVERY_KIND: Step[] = [
  { op: 'order', user: 0, direction: 'long', limit: false, offset: 0, lots: 3, leverage: 1 },
  { op: 'order', user: 1, direction: 'short', limit: false, offset: 0, lots: 2, leverage: 2 },
  { op: 'close', user: 0, pick: 0, lots: 1, limit: false, offset: 0 },
  { op: 'order', user: 2, direction: 'long', limit: true, offset: -30, lots: 1, leverage: 1 },
  { op: 'order', user: 2, direction: 'long', limit: true, offset: -20, lots: 1, leverage: 1 },
  { op: 'cancel', user: 2, pick: 0 },
  { op: 'move', ticks: -40 },
  { op: 'match' },
  { op: 'close', user: 1, pick: 0, lots: 2, limit: false, offset: 0 },
];

let price = 3100;
let phone = 0;
let sequences = 0;
let stepsChecked = 0;
/**
 * The database grows by three users and their trades every sequence; PGlite has no autovacuum and the
 * server's autovacuum lags behind a test this fast, so without fresh statistics the planner keeps row
 * estimates of an empty database and the checks slow down with every sequence (hash joins over whole
 * tables). Refreshing them now and then keeps a long run linear.
 */
const ANALYZE_EVERY = 250;

async function run(users: number[], s: Step): Promise<void> {
  const outbox: Outbox = [];
  const db = t.database.db;
  try {
    switch (s.op) {
      case 'order':
        await db.transaction((tx) =>
          placeOrder(
            tx,
            deps,
            users[s.user] ?? 0,
            {
              code: '7203',
              direction: s.direction,
              price_type: s.limit ? 'limit' : 'market',
              ...(s.limit ? { price: (price + s.offset) * 100 } : {}),
              quantity: s.lots * 100,
              leverage: s.leverage,
              day_trade: false,
            },
            outbox,
          ),
        );
        return;
      case 'cancel': {
        const pending = await db
          .select()
          .from(orders)
          .where(and(eq(orders.userId, users[s.user] ?? 0), eq(orders.status, 'pending')));
        const order = pending[s.pick % Math.max(1, pending.length)];
        if (order) await db.transaction((tx) => cancelOrder(tx, deps, order.userId, order.orderNo, outbox));
        return;
      }
      case 'close': {
        const held = await db
          .select()
          .from(positions)
          .where(and(eq(positions.userId, users[s.user] ?? 0), eq(positions.status, 'holding')));
        const p = held[s.pick % Math.max(1, held.length)];
        if (!p) return;
        await db.transaction((tx) =>
          closePosition(
            tx,
            deps,
            p.userId,
            {
              position_id: p.id,
              price_type: s.limit ? 'limit' : 'market',
              ...(s.limit ? { price: (price + s.offset) * 100 } : {}),
              quantity: s.lots * 100,
            },
            outbox,
          ),
        );
        return;
      }
      case 'move':
        price = Math.min(3799, Math.max(2401, price + s.ticks));
        market.set('7203', price, { prevCloseYen: 3100 });
        return;
      case 'session':
        t.clock.set(s.open ? TEST_NOW : '2026-11-28T03:00:00.000Z');
        return;
      case 'match':
        await matchPendingOrders(db, deps);
        return;
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
}

async function checkInvariants(users: number[], firstEntry: number): Promise<void> {
  const db = t.database.db;
  const unbalanced = await db
    .select({ entry: postings.entryId })
    .from(postings)
    .where(sql`${postings.entryId} >= ${firstEntry}`)
    .groupBy(postings.entryId)
    .having(sql`sum(${postings.amount}) <> 0`);
  expect(unbalanced).toEqual([]);
  expect(await ledgerHeadMismatches(db, users)).toEqual([]);
  for (const userId of users) {
    const balances = await userBalances(db, userId);
    const { lines } = await ledgerLines(db, userId, {});
    const folded = { cash: 0, reserved: 0, margin: 0, withdrawing: 0 } as Record<string, number>;
    for (const l of lines) folded[l.account] = (folded[l.account] ?? 0) + l.amount;
    expect(balances).toEqual(folded);
    expect(balances.cash).toBeGreaterThanOrEqual(0);
    const [held] = await db
      .select({ reserved: sql<string>`coalesce(sum(${orders.reserved}), 0)::text` })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.status, 'pending')));
    expect(balances.reserved).toBe(Number(held?.reserved ?? 0));
    const [collateral] = await db
      .select({ c: sql<string>`coalesce(sum(${positions.collateral}), 0)::text` })
      .from(positions)
      .where(and(eq(positions.userId, userId), inArray(positions.status, ['holding'])));
    expect(balances.margin).toBe(Number(collateral?.c ?? 0));
    expect(verifyStatement(lines)).toMatchObject({ valid: true });
  }
}

describe('ledger invariants under random trading', () => {
  it(
    'hold after every step',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
          sequences += 1;
          if (sequences % ANALYZE_EVERY === 0) await t.database.db.execute(sql`analyze`);
          t.clock.set(TEST_NOW);
          price = 3100;
          market.set('7203', price, { prevCloseYen: 3100 });
          const [last] = await t.database.db
            .select({ id: sql<string>`coalesce(max(${postings.entryId}), 0)::text` })
            .from(postings);
          const firstEntry = Number(last?.id ?? 0) + 1;
          const users: number[] = [];
          for (let i = 0; i < 3; i++) {
            phone += 1;
            users.push(
              await t.database.db.transaction((tx) =>
                createUser(
                  tx,
                  { clock: t.clock, demoCashYen: 2_000_000 },
                  {
                    phone: `070${String(phone).padStart(8, '0')}`,
                    passwordHash: 'not-used',
                    invitedByCode: 'PROPERTY',
                    inviterUserId: null,
                  },
                ),
              ),
            );
          }
          for (const s of steps) {
            await run(users, s);
            await checkInvariants(users, firstEntry);
            stepsChecked += 1;
          }
        }),
        // Fast-check runs this sequence first, so that every run, however few its random sequences, has
        // filled an opening and a closing order and left an order waiting and one cancelled.
        { numRuns: RUNS, examples: [[EVERY_KIND]] },
      );
      // The sequences did trade: fills of both kinds and pending orders happened.
      const kinds = await t.database.db
        .select({ kind: orders.kind, status: orders.status, n: sql<number>`count(*)::int` })
        .from(orders)
        .groupBy(orders.kind, orders.status);
      const count = (kind: string, status: string) =>
        kinds.find((k) => k.kind === kind && k.status === status)?.n ?? 0;
      expect(count('open', 'filled')).toBeGreaterThan(0);
      expect(count('close', 'filled')).toBeGreaterThan(0);
      expect(count('open', 'cancelled') + count('open', 'pending')).toBeGreaterThan(0);
      console.log(
        `${sequences} sequences, ${stepsChecked} steps, every invariant checked after each; orders: ` +
          kinds.map((k) => `${k.kind} ${k.status} ${k.n}`).join(', '),
      );
    },
    Math.max(600_000, RUNS * 600),
  );
});
