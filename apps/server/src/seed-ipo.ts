import { and, count, eq } from 'drizzle-orm';
import { yen, type Sen, type TOfferingPublish } from '@kabuto/contract';
import { offeringApplications, offerings } from './db/schema.js';
import type { Db } from './db/types.js';
import { FixedClock, type Clock } from './lib/clock.js';
import type { MarketDataProvider } from './market/provider.js';
import { runOfferingSteps } from './modules/ipo/job.js';
import { applyFor, confirmPurchase, fixOfferPrice, publishOffering } from './modules/ipo/offerings.js';
import { lockUser } from './modules/ledger/ledger.js';

/**
 * The demo's offerings (issue 16), once, on first start: an IPO in each state around the clock's time
 * (upcoming, open for book-building, closed awaiting its draw, drawn with the demo user's win to confirm,
 * listed with the demo user's shares delivered, and one the demo user did not win because the bid was below
 * the offer price) and one open off-auction distribution. The demo user's applications are made by the real
 * functions with a clock set in the past, and the steps run by the real job, so the draws verify.
 */
export async function seedDemoOfferings(
  db: Db,
  clock: Clock,
  market: MarketDataProvider,
  demoUserId: number,
) {
  const [existing] = await db.select({ n: count() }).from(offerings);
  if ((existing?.n ?? 0) > 0) return;
  const now = clock.now().getTime();
  const H = 3600_000;
  const iso = (h: number) => new Date(now + h * H).toISOString();
  const ipo = (code: string, name: string, start: number, low: number, high: number): TOfferingPublish => ({
    kind: 'ipo',
    code,
    name,
    issuer: `${name}株式会社`,
    market: '東証グロース',
    price_low: yen(low),
    price_high: yen(high),
    discount_bps: null,
    unit_shares: 100,
    offering_units: 500,
    cap_units: 10,
    window_open: iso(start),
    window_close: iso(start + 96),
    draw_at: iso(start + 120),
    purchase_deadline: iso(start + 192),
    listing_at: iso(start + 288),
    policy: { kind: 'equal' },
    prospectus_url: null,
  });
  const at = (h: number) => new FixedClock(new Date(now + h * H));
  const deps = (c: Clock) => ({ clock: c, market, locale: 'ja' });

  const publish = (input: TOfferingPublish, c: Clock) =>
    db.transaction((tx) => publishOffering(tx, deps(c), null, input));
  const apply = (id: number, units: number, bid: Sen | null, c: Clock) =>
    db.transaction(async (tx) => {
      await lockUser(tx, demoUserId);
      return applyFor(tx, deps(c), demoUserId, id, { units, bid_price: bid });
    });
  const fix = (id: number, yen: number, c: Clock) =>
    db.transaction((tx) => fixOfferPrice(tx, c, null, id, yen * 100));

  // upcoming: the window opens in three days
  await publish(ipo('9551', 'カブトAI', 72, 1_200, 1_400), clock);
  // open: book-building now (the demo user has not applied yet)
  await publish(
    { ...ipo('9552', 'ミライ物流', -24, 850, 950), policy: { kind: 'weighted', points_bps: 3000 } },
    clock,
  );
  // closed: window over, price fixed, the draw tomorrow; the demo user applied
  const closed = await publish(ipo('9553', 'サクラ製薬', -100, 2_000, 2_300), at(-100));
  await apply(closed.id, 2, null, at(-90));
  await fix(closed.id, 2_250, at(-3));
  // drawn: the demo user won and can confirm the purchase until the deadline
  const drawn = await publish(ipo('9554', 'ヒカリ電子', -140, 1_500, 1_700), at(-140));
  await apply(drawn.id, 1, null, at(-130));
  await fix(drawn.id, 1_700, at(-43));
  // listed: the demo user's shares were delivered at the offer price
  const listed = await publish(ipo('9555', 'ミナト食品', -400, 600, 700), at(-400));
  await apply(listed.id, 3, null, at(-390));
  await fix(listed.id, 680, at(-303));
  // not won: the demo user bid below the offer price
  const lost = await publish(ipo('9556', 'アオバ建設', -140, 1_000, 1_200), at(-140));
  await apply(lost.id, 1, yen(1_000), at(-130));
  await fix(lost.id, 1_150, at(-43));

  // the steps as the job runs them, at the times they came due
  for (const h of [-303, -279]) await runOfferingSteps(db, new Date(now + h * H));
  await db.transaction(async (tx) => {
    await lockUser(tx, demoUserId);
    const [mine] = await tx
      .select()
      .from(offeringApplications)
      .where(
        and(eq(offeringApplications.offeringId, listed.id), eq(offeringApplications.userId, demoUserId)),
      );
    if (mine) await confirmPurchase(tx, deps(at(-250)), demoUserId, mine.id, []);
  });
  for (const h of [-200, -100, -20, 0]) await runOfferingSteps(db, new Date(now + h * H));

  // an open off-auction distribution of a listed stock, if the market quotes it
  if (market.quote('7203')) {
    await publish(
      {
        kind: 'distribution',
        code: '7203',
        name: 'トヨタ自動車',
        issuer: 'トヨタ自動車株式会社',
        market: '東証プライム',
        price_low: null,
        price_high: null,
        discount_bps: 250,
        unit_shares: 100,
        offering_units: 2_000,
        cap_units: 5,
        window_open: iso(-1),
        window_close: iso(20),
        draw_at: iso(21),
        purchase_deadline: null,
        listing_at: iso(21),
        policy: { kind: 'equal' },
        prospectus_url: null,
      },
      clock,
    );
  }
}
