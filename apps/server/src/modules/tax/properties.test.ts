import fc from 'fast-check';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TAX_SETTINGS, withholdingFor, yen, type TaxAccount } from '@kabuto/contract';
import { brokerageAccounts, orders, positions, postings, settings } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { createTestApp, TEST_NOW, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { createUser } from '../auth/service.js';
import { ledgerHeadMismatches, userBalances } from '../ledger/ledger.js';
import { closePosition } from '../trading/close.js';
import { placeOrder } from '../trading/open.js';
import type { Outbox, TradingDeps } from '../trading/orders.js';
import { cancelOrder, matchPendingOrders } from '../trading/pending.js';
import { nisaQuota } from './nisa.js';
import { withheldInYear, yearGain } from './realize.js';

/**
 * Properties of ADR 0021 under random trading in 特定口座 (源泉徴収あり), 一般口座 and NISA: after every step
 * the tax withheld in each year is exactly 15.315% and 5% (each floored to the yen) of that year's positive
 * net realized gain in 特定口座; NISA's yearly and lifetime quota are never exceeded (small limits here, so
 * that refusals happen); each user holds at most one cash holding per stock and account; and the ledger's
 * invariants hold (balanced entries, heads equal to the fold of postings, cash never negative).
 * TAX_PROPERTY_RUNS sets the number of random sequences (25 by default, well under a minute on PGlite).
 */
const RUNS = Number(process.env['TAX_PROPERTY_RUNS'] ?? 25);
const LIMITS = {
  ...DEFAULT_TAX_SETTINGS,
  nisa_annual_growth_limit_yen: 1_000_000,
  nisa_lifetime_limit_yen: 1_800_000,
  nisa_growth_lifetime_limit_yen: 1_500_000,
};
const NEXT_YEAR = '2027-01-05T01:00:00.000Z';

let t: TestApp;
let market: TestMarket;
let deps: TradingDeps;
beforeAll(async () => {
  t = await createTestApp({}, undefined, { market: (clock) => (market = new TestMarket(clock)) });
  deps = { clock: t.clock, market, fees: { bp: 10, min: 0, max: 0 }, locale: 'en' };
  await t.database.db
    .insert(settings)
    .values({ key: 'tax', value: JSON.stringify(LIMITS), updatedBy: null, updatedAt: t.clock.now() });
});
afterAll(() => t.close());

type Step =
  | { op: 'buy'; user: number; account: TaxAccount; limit: boolean; offset: number; lots: number }
  | { op: 'sell'; user: number; pick: number; lots: number }
  | { op: 'cancel'; user: number; pick: number }
  | { op: 'move'; ticks: number }
  | { op: 'newYear' }
  | { op: 'match' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('buy' as const),
      user: fc.nat(1),
      account: fc.constantFrom<TaxAccount>('specific', 'specific', 'nisa', 'general'),
      limit: fc.boolean(),
      offset: fc.integer({ min: -20, max: 5 }),
      lots: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('sell' as const),
      user: fc.nat(1),
      pick: fc.nat(5),
      lots: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('cancel' as const), user: fc.nat(1), pick: fc.nat(5) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('move' as const), ticks: fc.integer({ min: -150, max: 150 }) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('newYear' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('match' as const) }) },
);

let price = 3100;
let phone = 0;
let refusals = 0;

async function run(users: number[], s: Step): Promise<void> {
  const outbox: Outbox = [];
  const db = t.database.db;
  const userId = 'user' in s ? (users[s.user] ?? 0) : 0;
  try {
    switch (s.op) {
      case 'buy':
        await db.transaction((tx) =>
          placeOrder(
            tx,
            deps,
            userId,
            {
              code: '7203',
              direction: 'long',
              price_type: s.limit ? 'limit' : 'market',
              ...(s.limit ? { price: (price + s.offset) * 100 } : {}),
              quantity: s.lots * 100,
              leverage: 1,
              account: s.account,
            },
            outbox,
          ),
        );
        return;
      case 'sell': {
        const held = await db
          .select()
          .from(positions)
          .where(and(eq(positions.userId, userId), eq(positions.status, 'holding')))
          .orderBy(positions.id);
        const p = held[s.pick % Math.max(1, held.length)];
        if (!p) return;
        await db.transaction((tx) =>
          closePosition(
            tx,
            deps,
            userId,
            { position_id: p.id, price_type: 'market', quantity: s.lots * 100 },
            outbox,
          ),
        );
        return;
      }
      case 'cancel': {
        const pending = await db
          .select()
          .from(orders)
          .where(and(eq(orders.userId, userId), eq(orders.status, 'pending')));
        const order = pending[s.pick % Math.max(1, pending.length)];
        if (order) await db.transaction((tx) => cancelOrder(tx, deps, userId, order.orderNo, outbox));
        return;
      }
      case 'move':
        price = Math.min(3799, Math.max(3001, price + s.ticks));
        market.set('7203', price, { prevCloseYen: 3100 });
        return;
      case 'newYear':
        t.clock.set(NEXT_YEAR);
        return;
      case 'match':
        await matchPendingOrders(db, deps);
        return;
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    refusals += 1;
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
    expect((await userBalances(db, userId)).cash).toBeGreaterThanOrEqual(0);
    for (const year of [2026, 2027]) {
      const due = withholdingFor(await yearGain(db, userId, year, 'specific'), LIMITS);
      expect(await withheldInYear(db, userId, year)).toEqual({ national: due.national, local: due.local });
    }
    const quota = await nisaQuota(db, userId, t.clock.now(), LIMITS);
    expect(quota.annual_used).toBeLessThanOrEqual(yen(LIMITS.nisa_annual_growth_limit_yen));
    expect(quota.lifetime_used).toBeLessThanOrEqual(yen(LIMITS.nisa_growth_lifetime_limit_yen));
    const holdings = await db
      .select({
        account: positions.taxAccount,
        n: sql<number>`count(*)::int`,
        book: sql<string>`min(book_value)::text`,
      })
      .from(positions)
      .where(and(eq(positions.userId, userId), eq(positions.status, 'holding')))
      .groupBy(positions.taxAccount);
    for (const h of holdings) {
      expect(h.n).toBe(1);
      expect(Number(h.book)).toBeGreaterThan(0);
    }
  }
}

describe('tax invariants under random trading', () => {
  it('withholding is 20.315% of the positive net gain, NISA quota holds, the ledger balances', async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (sequence) => {
        t.clock.set(TEST_NOW);
        price = 3100;
        market.set('7203', price, { prevCloseYen: 3100 });
        const [last] = await t.database.db
          .select({ id: sql<string>`coalesce(max(${postings.entryId}), 0)::text` })
          .from(postings);
        const firstEntry = Number(last?.id ?? 0) + 1;
        const users: number[] = [];
        for (let i = 0; i < 2; i++) {
          phone += 1;
          const userId = await t.database.db.transaction((tx) =>
            createUser(
              tx,
              { clock: t.clock, demoCashYen: 3_000_000 },
              {
                phone: `080${String(phone).padStart(8, '0')}`,
                passwordHash: 'not-used',
                invitedByCode: 'PROPERTY',
                inviterUserId: null,
              },
            ),
          );
          await t.database.db.insert(brokerageAccounts).values({
            userId,
            specificAccount: 'withholding',
            nisaOpenedAt: t.clock.now(),
            defaultTaxAccount: 'specific',
            openedAt: t.clock.now(),
          });
          users.push(userId);
        }
        for (const s of sequence) {
          await run(users, s);
          await checkInvariants(users, firstEntry);
          steps += 1;
        }
      }),
      {
        numRuns: RUNS,
        // gains, a loss that refunds, NISA up to its yearly limit, and a new year
        examples: [
          [
            [
              { op: 'buy', user: 0, account: 'specific', limit: false, offset: 0, lots: 3 },
              { op: 'move', ticks: 150 },
              { op: 'sell', user: 0, pick: 0, lots: 1 },
              { op: 'move', ticks: -300 },
              { op: 'sell', user: 0, pick: 0, lots: 2 },
              { op: 'buy', user: 1, account: 'nisa', limit: false, offset: 0, lots: 3 },
              { op: 'buy', user: 1, account: 'nisa', limit: true, offset: -20, lots: 1 },
              { op: 'newYear' },
              { op: 'buy', user: 1, account: 'nisa', limit: false, offset: 0, lots: 3 },
            ],
          ],
        ],
      },
    );
    const [tax] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(postings)
      .where(
        sql`${postings.entryId} in (select id from journal_entries where kind in ('tax_withheld', 'tax_refund'))`,
      );
    // The sequences did withhold and refuse (the NISA limits are small).
    expect(tax?.n ?? 0).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(0);
    console.log(`${RUNS} sequences, ${steps} steps checked, ${refusals} refusals`);
  }, 600_000);
});
