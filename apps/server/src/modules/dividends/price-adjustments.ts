import { sen } from '@kabuto/contract';
import { dividendAnnouncements } from '../../db/schema.js';
import type { Executor } from '../../db/types.js';
import type { MarketDataProvider, PriceAdjustment } from '../../market/provider.js';
import type { PubSub } from '../../realtime/pubsub.js';

/**
 * The ex-date price drop (issue 17, ADR 0027): every published dividend lowers its stock's base price on its
 * ex date. The simulator imports nothing of the database; the app gives it the announcements' adjustments at
 * start and after each publication, and tells the other processes to reload theirs over pub/sub.
 */

/** Where a process says that the announcements changed: every process reloads its adjustments. */
export const PRICE_ADJUSTMENTS_CHANNEL = 'market.adjustments';

/** Every announcement's ex date and dividend per share (paid ones too: the history keeps its drops). */
export async function priceAdjustments(db: Executor): Promise<PriceAdjustment[]> {
  const rows = await db
    .select({
      code: dividendAnnouncements.code,
      exDate: dividendAnnouncements.exDate,
      perShare: dividendAnnouncements.perShare,
    })
    .from(dividendAnnouncements);
  return rows.map((r) => ({ code: r.code, exDate: r.exDate, amount: sen(r.perShare) }));
}

/** Gives the market data provider the announcements' adjustments (a provider of real prices needs none). */
export async function loadPriceAdjustments(ctx: { db: Executor; market: MarketDataProvider }): Promise<void> {
  if (!ctx.market.setPriceAdjustments) return;
  ctx.market.setPriceAdjustments(await priceAdjustments(ctx.db));
}

/**
 * After an announcement has committed: this process reloads at once, and the others when they hear of it. If
 * the message cannot be sent, the other processes keep their adjustments until they restart; the error is
 * the caller's to log.
 */
export async function publishPriceAdjustments(ctx: {
  db: Executor;
  market: MarketDataProvider;
  pubsub: PubSub;
}): Promise<void> {
  await loadPriceAdjustments(ctx);
  await ctx.pubsub.publish(PRICE_ADJUSTMENTS_CHANNEL, 'reload');
}
