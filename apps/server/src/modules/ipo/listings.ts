import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { offerings } from '../../db/schema.js';
import type { Executor } from '../../db/types.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { tradingCalendar, type TradingCalendar } from '../../market/calendar.js';
import { setListedInstruments, type Instrument, type MarketSegment } from '../../market/instruments.js';
import type { NewListing } from '../../market/listing.js';
import type { MarketDataProvider } from '../../market/provider.js';
import type { PubSub } from '../../realtime/pubsub.js';
import type { OfferingRow } from './offerings.js';

/**
 * Listed IPOs on the simulated market (issue 16, ADR 0035). The simulator imports nothing of the database: the
 * app gives it every drawn IPO (its code, name, offer price, listing date and revealed seed) at start and after
 * each draw, and tells the other processes to reload theirs over pub/sub. Each process then computes the same
 * prices from the same terms (market/listing.ts), so it does not matter which one produces the ticks.
 */

/** Where a process says that an IPO was drawn (or listed): every process reloads its listings. */
export const LISTINGS_CHANNEL = 'market.listings';

/** The TSE segment an offering's market text names (東証グロース / スタンダード / プライム). */
export function segmentOf(market: string): MarketSegment {
  if (/プライム|prime/iu.test(market)) return 'Prime';
  if (/スタンダード|standard/iu.test(market)) return 'Standard';
  return 'Growth';
}

/** The listing's first trading date: the Tokyo date of listing_at, or the next business day. */
export function listingDateOf(o: OfferingRow, calendar: TradingCalendar = tradingCalendar()) {
  return calendar.onOrAfter(tokyoParts(o.listingAt).date);
}

export function listingOf(o: OfferingRow, calendar?: TradingCalendar): NewListing | undefined {
  if (o.kind !== 'ipo' || o.cancelledAt || !o.drawnAt || o.offerPrice === null) return undefined;
  return {
    code: o.code,
    name: o.name,
    offeringId: o.id,
    seed: o.seed,
    offerPrice: o.offerPrice,
    listingDate: listingDateOf(o, calendar),
    offeredShares: o.offeringUnits * o.unitShares,
  };
}

export function instrumentOf(o: OfferingRow): Instrument {
  return {
    code: o.code,
    name_ja: o.name.normalize('NFKC').trim(),
    name_en: o.name.normalize('NFKC').trim(),
    short_name_ja: null,
    sector: '',
    sector_en: '',
    market: segmentOf(o.market),
    topix_size: null,
    is_topix500: false,
    nikkei225: false,
  };
}

/** Every drawn IPO, oldest first (a later offering of the same code replaces an earlier one). */
export async function drawnIpos(db: Executor): Promise<OfferingRow[]> {
  return db
    .select()
    .from(offerings)
    .where(
      and(
        eq(offerings.kind, 'ipo'),
        isNull(offerings.cancelledAt),
        isNotNull(offerings.drawnAt),
        isNotNull(offerings.offerPrice),
      ),
    )
    .orderBy(asc(offerings.id));
}

/** Gives the instrument list and the market data provider the drawn IPOs (a real feed lists them itself). */
export async function loadListings(ctx: { db: Executor; market: MarketDataProvider }): Promise<void> {
  const rows = await drawnIpos(ctx.db);
  const byCode = new Map(rows.map((o) => [o.code, o]));
  setListedInstruments([...byCode.values()].map(instrumentOf));
  ctx.market.setListings?.([...byCode.values()].flatMap((o) => listingOf(o) ?? []));
}

/** After a draw has committed: this process reloads at once, the others when they hear of it. */
export async function publishListings(ctx: {
  db: Executor;
  market: MarketDataProvider;
  pubsub: PubSub;
}): Promise<void> {
  await loadListings(ctx);
  await ctx.pubsub.publish(LISTINGS_CHANNEL, 'reload');
}
