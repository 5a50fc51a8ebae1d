import { and, count, eq } from 'drizzle-orm';
import { sen, tickSize, type FeeSchedule, type TPlaceOrderRequest } from '@kabuto/contract';
import type { Db } from './db/types.js';
import { brokerageAccounts, orders, positions } from './db/schema.js';
import { FixedClock } from './lib/clock.js';
import { getInstrument } from './market/instruments.js';
import { priceLimits } from './market/limits.js';
import type { Board, MarketDataProvider, Quote } from './market/provider.js';
import { closePosition } from './modules/trading/close.js';
import { placeOrder } from './modules/trading/open.js';
import type { Outbox } from './modules/trading/orders.js';

/**
 * The demo's tax history (ADR 0021): a brokerage account with 特定口座 (源泉徴収あり) and NISA, and a few
 * trades made by the real order functions on past business days at fixed prices, so that the tax page, the
 * annual trade report and the transaction log have something to show: two purchases of Toyota at different
 * prices (one holding at their moving average), a sale at a gain with its withholding, a sale at a loss with
 * its refund, and a NISA purchase. Done once: a demo user with orders is left alone.
 */

/** Past trades: when (Tokyo 10:00 on a business day), the stock, its price in yen, what is done. */
const HISTORY: readonly {
  at: string;
  code: string;
  priceYen: number;
  action: { buy: number; account: 'specific' | 'nisa' } | { sell: number };
}[] = [
  { at: '2026-04-07T01:00:00.000Z', code: '7203', priceYen: 2850, action: { buy: 300, account: 'specific' } },
  { at: '2026-05-12T01:00:00.000Z', code: '7203', priceYen: 2710, action: { buy: 200, account: 'specific' } },
  { at: '2026-06-09T01:00:00.000Z', code: '7203', priceYen: 3120, action: { sell: 300 } },
  { at: '2026-07-14T01:00:00.000Z', code: '8306', priceYen: 2450, action: { buy: 400, account: 'nisa' } },
  { at: '2026-09-08T01:00:00.000Z', code: '7203', priceYen: 2690, action: { sell: 100 } },
];

/** A market that quotes one stock at one price at the clock's time, in session: the demo's past. */
function pastMarket(
  live: MarketDataProvider,
  clock: FixedClock,
  code: string,
  priceYen: number,
): MarketDataProvider {
  const topix500 = getInstrument(code)?.is_topix500 ?? false;
  const last = sen(priceYen * 100);
  const tick = tickSize(last, topix500);
  const limits = priceLimits(last, topix500);
  const quote = (c: string): Quote | undefined =>
    c !== code
      ? undefined
      : {
          code,
          last,
          bid: sen(last - tick),
          ask: sen(last + tick),
          open: last,
          high: last,
          low: last,
          prev_close: last,
          volume: 0,
          turnover: sen(0),
          change: sen(0),
          change_bp: 0,
          limit_up: limits.upper,
          limit_down: limits.lower,
          trading_date: clock.now().toISOString().slice(0, 10),
          time: clock.now().toISOString(),
          simulated: true,
        };
  // The past's book: deep at the quote's bid and ask, so that each past order fills whole at the touch (the
  // live book, at today's price, is not the past's).
  const board = (c: string): Board | undefined => {
    const q = quote(c);
    return q === undefined
      ? undefined
      : {
          code,
          last,
          asks: [{ price: q.ask, quantity: 1_000_000 }],
          bids: [{ price: q.bid, quantity: 1_000_000 }],
          over: 0,
          under: 0,
          trading_date: q.trading_date,
          time: q.time,
          simulated: true,
        };
  };
  return Object.assign(Object.create(live) as MarketDataProvider, {
    clockMode: 'tokyo' as const,
    quote,
    board,
    quotes: (codes: readonly string[]) => codes.flatMap((c) => quote(c) ?? []),
  });
}

export async function seedDemoTaxHistory(
  db: Db,
  userId: number,
  trading: { market: MarketDataProvider; fees: FeeSchedule },
): Promise<void> {
  const first = HISTORY[0];
  if (!first) return;
  await db
    .insert(brokerageAccounts)
    .values({
      userId,
      specificAccount: 'withholding',
      nisaOpenedAt: new Date(first.at),
      defaultTaxAccount: 'specific',
      openedAt: new Date(first.at),
    })
    .onConflictDoNothing();
  const [placed] = await db.select({ n: count() }).from(orders).where(eq(orders.userId, userId));
  if ((placed?.n ?? 0) > 0) return;
  const clock = new FixedClock(first.at);
  for (const step of HISTORY) {
    clock.set(step.at);
    const deps = {
      clock,
      market: pastMarket(trading.market, clock, step.code, step.priceYen),
      fees: trading.fees,
      locale: 'ja',
    };
    const outbox: Outbox = [];
    const action = step.action;
    await db.transaction(async (tx) => {
      if ('buy' in action) {
        const request: TPlaceOrderRequest = {
          code: step.code,
          direction: 'long',
          price_type: 'market',
          quantity: action.buy,
          leverage: 1,
          account: action.account,
        };
        await placeOrder(tx, deps, userId, request, outbox);
        return;
      }
      const [holding] = await tx
        .select({ id: positions.id })
        .from(positions)
        .where(
          and(eq(positions.userId, userId), eq(positions.code, step.code), eq(positions.status, 'holding')),
        )
        .orderBy(positions.id);
      if (holding) {
        await closePosition(
          tx,
          deps,
          userId,
          { position_id: holding.id, price_type: 'market', quantity: action.sell },
          outbox,
        );
      }
    });
  }
}
