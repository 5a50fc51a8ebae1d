import { createHmac, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import {
  formatYen,
  localeOf,
  negSen,
  roundToTick,
  sen,
  type Sen,
  type TApplication,
  type TApplicationCreate,
  type TOffering,
  type TOfferingPhase,
  type TOfferingPublish,
  translate,
} from '@kabuto/contract';
import { ipoPoints, offeringApplications, offerings, positions } from '../../db/schema.js';
import type { Executor, Tx } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { getInstrument } from '../../market/instruments.js';
import type { MarketDataProvider } from '../../market/provider.js';
import { audit } from '../console/audit.js';
import { lockUser, postEntry, userBalances } from '../ledger/ledger.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import { requireTradingAccount } from '../opening/brokerage.js';
import { heldAccounts, movingAverage, readAccountAndHoldings, resolveTaxAccount } from '../tax/accounts.js';
import { checkNisaBuy, nisaQuota } from '../tax/nisa.js';
import { draw, fallbackWinners, listHash, seedHash, type DrawApplication } from './draw.js';

export type OfferingRow = typeof offerings.$inferSelect;
export type ApplicationRow = typeof offeringApplications.$inferSelect;

/** Where an offering stands at `now` (see OFFERING_PHASES). */
export function phaseOf(o: OfferingRow, now: Date): TOfferingPhase {
  if (o.cancelledAt) return 'cancelled';
  if (now < o.windowOpen) return 'upcoming';
  if (now < o.windowClose) return 'open';
  if (!o.drawnAt) return 'closed';
  if (now < o.listingAt) return 'drawn';
  return 'listed';
}

/** The applicant's pseudonym in the published list: not linkable to the user without the server's seed. */
export function pseudonymOf(seed: string, userId: number): string {
  return createHmac('sha256', seed).update(`applicant:${userId}`).digest('hex').slice(0, 16);
}

export function offeringView(o: OfferingRow, now: Date, stats = { applications: 0, units: 0 }): TOffering {
  const drawn = o.drawnAt !== null;
  return {
    id: o.id,
    kind: o.kind,
    code: o.code,
    name: o.name,
    issuer: o.issuer,
    market: o.market,
    phase: phaseOf(o, now),
    price_low: o.priceLow === null ? null : sen(o.priceLow),
    price_high: o.priceHigh === null ? null : sen(o.priceHigh),
    offer_price: o.offerPrice === null ? null : sen(o.offerPrice),
    base_close: o.baseClose === null ? null : sen(o.baseClose),
    discount_bps: o.discountBps,
    unit_shares: o.unitShares,
    offering_units: o.offeringUnits,
    cap_units: o.capUnits,
    window_open: o.windowOpen.toISOString(),
    window_close: o.windowClose.toISOString(),
    draw_at: o.drawAt.toISOString(),
    purchase_deadline: o.purchaseDeadline?.toISOString() ?? null,
    listing_at: o.listingAt.toISOString(),
    policy: o.policy,
    prospectus_url: o.prospectusUrl,
    seed_hash: o.seedHash,
    list_hash: o.listHash,
    // the seed is revealed only once the draw has run (or the offering was cancelled before it)
    seed: drawn || o.cancelledAt ? o.seed : null,
    applications: stats.applications,
    applied_units: stats.units,
  };
}

export function amountDue(o: OfferingRow, a: ApplicationRow): Sen {
  return sen(a.wonUnits * o.unitShares * (o.offerPrice ?? 0));
}

export function applicationView(o: OfferingRow, a: ApplicationRow): TApplication {
  return {
    id: a.id,
    offering_id: o.id,
    code: o.code,
    name: o.name,
    kind: o.kind,
    state: a.state,
    reason: a.reason,
    pseudonym: a.pseudonym,
    units: a.units,
    bid_price: a.bidPrice === null ? null : sen(a.bidPrice),
    won_units: a.wonUnits,
    amount_due: amountDue(o, a),
    amount_paid: sen(a.amountPaid),
    reserved: sen(a.reserved),
    account: a.taxAccount,
    created_at: a.createdAt.toISOString(),
  };
}

export interface OfferingDeps {
  clock: Clock;
  market: MarketDataProvider;
  locale: string;
}

/** 分売価格: the previous close times (1 − discount), rounded down to a valid tick. */
export function distributionPrice(prevClose: number, discountBps: number, topix500: boolean): Sen {
  const raw = Math.floor((prevClose * (10_000 - discountBps)) / 10_000);
  return roundToTick(raw, topix500, 'down');
}

/** Which of an offering's terms is wrong, said in the reader's language (messages' `offeringTerms`). */
export type OfferingTermsRule =
  | 'windowOrder'
  | 'drawAfterClose'
  | 'priceRangeMissing'
  | 'priceRangeOrder'
  | 'purchaseDates'
  | 'discountMissing'
  | 'listingAfterDraw';

function invalid(locale: string, rule: OfferingTermsRule): AppError {
  return new AppError('OFFERING_TERMS_INVALID', {
    detail: translate(localeOf(locale), `offeringTerms.${rule}`),
  });
}

/**
 * A distribution's price is fixed when its window opens (立会外分売: announced after a close, applied for the next
 * morning), from the previous close then: the offering job does it at the window's opening, and so does the
 * first application or the publication itself when it comes first. Idempotent: only a row still without a
 * price is written, once, audited as the system's; every later caller reads the price already fixed.
 */
export async function fixDistributionPrice(
  tx: Executor,
  o: OfferingRow,
  market: MarketDataProvider,
  now: Date,
): Promise<OfferingRow> {
  if (o.kind !== 'distribution' || o.offerPrice !== null || now < o.windowOpen || o.cancelledAt) return o;
  const quote = market.quote(o.code);
  if (!quote || quote.prev_close <= 0) throw new AppError('OFFERING_NO_PREVIOUS_CLOSE');
  const price = distributionPrice(
    quote.prev_close,
    o.discountBps ?? 0,
    getInstrument(o.code)?.is_topix500 ?? false,
  );
  const [row] = await tx
    .update(offerings)
    .set({ offerPrice: price, baseClose: quote.prev_close })
    .where(and(eq(offerings.id, o.id), isNull(offerings.offerPrice)))
    .returning();
  if (!row) {
    const [fresh] = await tx.select().from(offerings).where(eq(offerings.id, o.id));
    if (!fresh) throw new AppError('OFFERING_NOT_FOUND');
    return fresh;
  }
  await audit(tx, {
    operatorId: null,
    action: 'offering.price_fixed',
    targetType: 'offering',
    targetId: o.id,
    before: { offer_price: null },
    after: { offer_price: price, base_close: quote.prev_close, discount_bps: o.discountBps },
    at: now,
  });
  return row;
}

/** Publishes an offering (an administrator): validated terms, a fresh seed committed by its hash, audited. */
export async function publishOffering(
  tx: Tx,
  deps: OfferingDeps,
  operatorId: number | null,
  input: TOfferingPublish,
): Promise<OfferingRow> {
  const now = deps.clock.now();
  const t = (s: string) => new Date(s);
  const open = t(input.window_open);
  const close = t(input.window_close);
  const drawAt = t(input.draw_at);
  const listing = t(input.listing_at);
  const deadline = input.purchase_deadline ? t(input.purchase_deadline) : null;
  if (!(open < close)) throw invalid(deps.locale, 'windowOrder');
  if (!(close <= drawAt)) throw invalid(deps.locale, 'drawAfterClose');
  let priceLow: number | null = null;
  let priceHigh: number | null = null;
  let discountBps: number | null = null;
  if (input.kind === 'ipo') {
    if (input.price_low == null || input.price_high == null) throw invalid(deps.locale, 'priceRangeMissing');
    if (!(input.price_low > 0 && input.price_low <= input.price_high))
      throw invalid(deps.locale, 'priceRangeOrder');
    if (!deadline || !(drawAt < deadline && deadline <= listing)) {
      throw invalid(deps.locale, 'purchaseDates');
    }
    priceLow = input.price_low;
    priceHigh = input.price_high;
  } else {
    if (input.discount_bps == null) throw invalid(deps.locale, 'discountMissing');
    if (!(drawAt <= listing)) throw invalid(deps.locale, 'listingAfterDraw');
    // a stock with a close to discount from; the price itself is fixed when the window opens
    const quote = deps.market.quote(input.code);
    if (!quote || quote.prev_close <= 0) throw new AppError('OFFERING_NO_PREVIOUS_CLOSE');
    discountBps = input.discount_bps;
  }
  const seed = randomBytes(32).toString('hex');
  const [row] = await tx
    .insert(offerings)
    .values({
      kind: input.kind,
      code: input.code,
      name: input.name,
      issuer: input.issuer,
      market: input.market,
      priceLow,
      priceHigh,
      offerPrice: null,
      baseClose: null,
      discountBps,
      unitShares: input.unit_shares,
      offeringUnits: input.offering_units,
      capUnits: input.cap_units,
      windowOpen: open,
      windowClose: close,
      drawAt,
      purchaseDeadline: input.kind === 'ipo' ? deadline : null,
      listingAt: listing,
      policy: input.policy,
      prospectusUrl: input.prospectus_url ?? null,
      seed,
      seedHash: seedHash(seed),
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('offering was not written');
  await audit(tx, {
    operatorId,
    action: 'offering.publish',
    targetType: 'offering',
    targetId: row.id,
    after: { ...input, seed_hash: row.seedHash },
    at: now,
  });
  return fixDistributionPrice(tx, row, deps.market, now);
}

async function offeringForUpdate(tx: Executor, id: number): Promise<OfferingRow> {
  const [row] = await tx.select().from(offerings).where(eq(offerings.id, id)).for('update');
  if (!row) throw new AppError('OFFERING_NOT_FOUND');
  return row;
}

/** 公開価格: fixed once, inside the range, before the draw (an administrator, audited). */
export async function fixOfferPrice(
  tx: Tx,
  clock: Clock,
  operatorId: number | null,
  id: number,
  price: number,
): Promise<OfferingRow> {
  const o = await offeringForUpdate(tx, id);
  if (o.kind !== 'ipo' || o.offerPrice !== null || o.listHash !== null || o.cancelledAt) {
    throw new AppError('OFFERING_PRICE_NOT_CHANGEABLE');
  }
  if (price < (o.priceLow ?? 0) || price > (o.priceHigh ?? 0))
    throw new AppError('OFFERING_PRICE_NOT_CHANGEABLE');
  const [row] = await tx.update(offerings).set({ offerPrice: price }).where(eq(offerings.id, id)).returning();
  if (!row) throw new Error('offering was not updated');
  await audit(tx, {
    operatorId,
    action: 'offering.fix_price',
    targetType: 'offering',
    targetId: id,
    before: { offer_price: null },
    after: { offer_price: price },
    at: clock.now(),
  });
  return row;
}

/** Releases what an application holds back to cash (under the user's lock). */
async function release(tx: Executor, o: OfferingRow, a: ApplicationRow, amount: number, at: Date) {
  if (amount <= 0) return;
  await postEntry(tx, {
    kind: 'ipo_release',
    memo: `Released from ${o.code} application ${a.id}`,
    params: { code: o.code, units: a.units, application_id: a.id, amount },
    ref: `offering-application:${a.id}`,
    at,
    lines: [
      { user: a.userId, account: 'reserved', amount: negSen(sen(amount)) },
      { user: a.userId, account: 'cash', amount: sen(amount) },
    ],
  });
}

/** Cancels an offering before its draw (an administrator, audited): every application is void and released. */
export async function cancelOffering(
  tx: Tx,
  clock: Clock,
  operatorId: number,
  id: number,
  reason: string,
  outbox: EventOutbox,
): Promise<OfferingRow> {
  const now = clock.now();
  const o = await offeringForUpdate(tx, id);
  if (o.cancelledAt) throw new AppError('OFFERING_CANCELLED');
  if (o.drawnAt) throw new AppError('OFFERING_NOT_OPEN');
  const live = await tx
    .select()
    .from(offeringApplications)
    .where(and(eq(offeringApplications.offeringId, id), eq(offeringApplications.state, 'applied')))
    .orderBy(asc(offeringApplications.userId));
  for (const a of live) {
    await lockUser(tx, a.userId);
    await release(tx, o, a, a.reserved, now);
    await tx
      .update(offeringApplications)
      .set({ state: 'cancelled', reason: 'cancelled', reserved: 0, updatedAt: now })
      .where(eq(offeringApplications.id, a.id));
    await notify(tx, outbox, a.userId, 'offering.cancelled', { code: o.code, offering_id: o.id }, now);
  }
  const [row] = await tx.update(offerings).set({ cancelledAt: now }).where(eq(offerings.id, id)).returning();
  if (!row) throw new Error('offering was not updated');
  await audit(tx, {
    operatorId,
    action: 'offering.cancel',
    targetType: 'offering',
    targetId: id,
    reason,
    after: { applications_released: live.length },
    at: now,
  });
  return row;
}

/** The per-share price an application reserves: the offer price once fixed, else the bid, else the range's top. */
function reservePrice(o: OfferingRow, bid: number | null): number {
  return o.offerPrice ?? bid ?? o.priceHigh ?? 0;
}

/**
 * Applies for units of an offering, under the user's lock (the caller, `idempotent`, took it): an opened
 * brokerage account, inside the window, at most the cap, one live application per offering, a bid inside
 * the range; the amount is moved from cash to reserved at once, so an application is never unfunded.
 */
export async function applyFor(
  tx: Tx,
  deps: OfferingDeps,
  userId: number,
  offeringId: number,
  input: TApplicationCreate,
): Promise<{ offering: OfferingRow; application: ApplicationRow }> {
  const now = deps.clock.now();
  const [found] = await tx.select().from(offerings).where(eq(offerings.id, offeringId));
  if (!found) throw new AppError('OFFERING_NOT_FOUND');
  if (found.cancelledAt) throw new AppError('OFFERING_CANCELLED');
  // before the offering job's pass at the window's opening, the first application fixes a distribution's price
  const o = await fixDistributionPrice(tx, found, deps.market, now);
  await requireTradingAccount(
    tx,
    userId,
    { margin_type: 'cash', leverage: 1, direction: 'long' },
    deps.locale,
    '',
  );
  if (now < o.windowOpen || now >= o.windowClose) throw new AppError('OFFERING_NOT_OPEN');
  if (input.units > o.capUnits) throw new AppError('OFFERING_ABOVE_CAP', { cap: o.capUnits });
  let bid: number | null = null;
  if (o.kind === 'ipo' && o.offerPrice === null && input.bid_price != null) {
    const low = o.priceLow ?? 0;
    const high = o.priceHigh ?? 0;
    if (input.bid_price < low || input.bid_price > high) {
      throw new AppError('OFFERING_BID_OUT_OF_RANGE', {
        low: formatYen(sen(low), deps.locale),
        high: formatYen(sen(high), deps.locale),
      });
    }
    bid = input.bid_price;
  }
  const [existing] = await tx
    .select({ id: offeringApplications.id })
    .from(offeringApplications)
    .where(
      and(
        eq(offeringApplications.offeringId, o.id),
        eq(offeringApplications.userId, userId),
        ne(offeringApplications.state, 'withdrawn'),
      ),
    );
  if (existing) throw new AppError('OFFERING_ALREADY_APPLIED');
  const amount = input.units * o.unitShares * reservePrice(o, bid);
  // the account the shares go into (ADR 0035): the customer's default unless chosen; a NISA application takes
  // its amount from the growth quota now (counted as pending until delivery, checked again then)
  const { choice } = await readAccountAndHoldings(tx, userId, o.code);
  const account = resolveTaxAccount(choice, input.account, false, deps.locale);
  if (account === 'nisa') await checkNisaBuy(tx, userId, sen(amount), now, deps.locale);
  const { cash } = await userBalances(tx, userId);
  if (amount > cash) {
    throw new AppError('OFFERING_INSUFFICIENT_CASH', {
      needed: formatYen(sen(amount), deps.locale),
      available: formatYen(cash, deps.locale),
    });
  }
  const [row] = await tx
    .insert(offeringApplications)
    .values({
      offeringId: o.id,
      userId,
      pseudonym: pseudonymOf(o.seed, userId),
      units: input.units,
      bidPrice: bid,
      state: 'applied',
      reserved: amount,
      taxAccount: account,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('application was not written');
  await postEntry(tx, {
    kind: 'ipo_reserve',
    memo: `Held for ${o.code} application ${row.id}`,
    params: { code: o.code, units: input.units, application_id: row.id, amount },
    ref: `offering-application:${row.id}`,
    at: now,
    lines: [
      { user: userId, account: 'cash', amount: negSen(sen(amount)) },
      { user: userId, account: 'reserved', amount: sen(amount) },
    ],
  });
  return { offering: o, application: row };
}

async function ownApplication(tx: Executor, userId: number, id: number) {
  const [row] = await tx
    .select({ a: offeringApplications, o: offerings })
    .from(offeringApplications)
    .innerJoin(offerings, eq(offerings.id, offeringApplications.offeringId))
    .where(and(eq(offeringApplications.id, id), eq(offeringApplications.userId, userId)));
  if (!row) throw new AppError('OFFERING_APPLICATION_NOT_FOUND');
  return row;
}

/** Withdraws an application while the window is open (under the user's lock): the reservation is released. */
export async function withdrawApplication(tx: Tx, clock: Clock, userId: number, id: number) {
  const now = clock.now();
  const { a, o } = await ownApplication(tx, userId, id);
  if (a.state !== 'applied') throw new AppError('OFFERING_NOT_WITHDRAWABLE');
  if (now >= o.windowClose) throw new AppError('OFFERING_NOT_WITHDRAWABLE');
  await release(tx, o, a, a.reserved, now);
  const [row] = await tx
    .update(offeringApplications)
    .set({ state: 'withdrawn', reason: 'withdrawn', reserved: 0, updatedAt: now })
    .where(eq(offeringApplications.id, id))
    .returning();
  if (!row) throw new Error('application was not updated');
  return { offering: o, application: row };
}

/** Confirms the purchase of a won IPO allocation (購入意思表示) before the deadline: reserved → settlement. */
export async function confirmPurchase(
  tx: Tx,
  deps: OfferingDeps,
  userId: number,
  id: number,
  outbox: EventOutbox,
) {
  const now = deps.clock.now();
  const { a, o } = await ownApplication(tx, userId, id);
  if (a.state !== 'won' || !o.purchaseDeadline || now >= o.purchaseDeadline) {
    throw new AppError('OFFERING_NOT_CONFIRMABLE');
  }
  const due = amountDue(o, a);
  const fromCash = due - a.reserved;
  if (fromCash > 0) {
    const { cash } = await userBalances(tx, userId);
    if (fromCash > cash) {
      throw new AppError('OFFERING_INSUFFICIENT_CASH', {
        needed: formatYen(sen(fromCash), deps.locale),
        available: formatYen(cash, deps.locale),
      });
    }
  }
  await postEntry(tx, {
    kind: 'ipo_payment',
    memo: `Purchase of ${o.code}: ${a.wonUnits * o.unitShares} shares at ${o.offerPrice ?? 0}`,
    params: {
      code: o.code,
      shares: a.wonUnits * o.unitShares,
      price: o.offerPrice ?? 0,
      application_id: a.id,
    },
    ref: `offering-application:${a.id}`,
    at: now,
    lines: [
      { user: userId, account: 'reserved', amount: negSen(sen(a.reserved)) },
      { user: userId, account: 'cash', amount: negSen(sen(Math.max(0, fromCash))) },
      { house: 'market_settlement', amount: due },
      // a fallback winner's reservation can exceed nothing; an honest reservation never exceeds the amount due
    ],
  });
  const [row] = await tx
    .update(offeringApplications)
    .set({ state: 'approved', reserved: 0, amountPaid: due, updatedAt: now })
    .where(eq(offeringApplications.id, id))
    .returning();
  if (!row) throw new Error('application was not updated');
  await notify(
    tx,
    outbox,
    userId,
    'offering.approved',
    { code: o.code, amount: due, offering_id: o.id },
    now,
  );
  return { offering: o, application: row };
}

/**
 * Declines a won allocation (recorded): the reservation is released and the units pass down the waiting
 * list (補欠) to applications the draw left without a unit, in drawn order.
 */
export async function declinePurchase(
  tx: Tx,
  deps: OfferingDeps,
  userId: number,
  id: number,
  outbox: EventOutbox,
) {
  const now = deps.clock.now();
  const { a, o } = await ownApplication(tx, userId, id);
  if (a.state !== 'won' || !o.purchaseDeadline || now >= o.purchaseDeadline) {
    throw new AppError('OFFERING_NOT_CONFIRMABLE');
  }
  await release(tx, o, a, a.reserved, now);
  const [row] = await tx
    .update(offeringApplications)
    .set({ state: 'declined', reserved: 0, updatedAt: now })
    .where(eq(offeringApplications.id, id))
    .returning();
  if (!row) throw new Error('application was not updated');
  await passDown(tx, o, a.wonUnits, now, outbox);
  return { offering: o, application: row };
}

/** Gives `units` declined units to the waiting list: lost-by-draw applications in drawn order, one each. */
async function passDown(tx: Tx, o: OfferingRow, units: number, now: Date, outbox: EventOutbox) {
  const all = await tx
    .select()
    .from(offeringApplications)
    .where(eq(offeringApplications.offeringId, o.id))
    .for('update');
  const taken = new Set(
    all.filter((x) => !(x.state === 'lost' && x.reason === 'not_drawn')).map((x) => x.id),
  );
  const next = fallbackWinners(o.drawOrder ?? [], taken, units);
  for (const winnerId of next) {
    const w = all.find((x) => x.id === winnerId);
    if (!w) continue;
    await tx
      .update(offeringApplications)
      .set({ state: 'won', reason: null, wonUnits: 1, updatedAt: now })
      .where(eq(offeringApplications.id, w.id));
    await notify(tx, outbox, w.userId, 'offering.won', { code: o.code, units: 1, offering_id: o.id }, now);
  }
}

/** The published list at the close: every live application, with the challenge points its holder had. */
async function liveApplications(tx: Executor, offeringId: number) {
  return tx
    .select()
    .from(offeringApplications)
    .where(and(eq(offeringApplications.offeringId, offeringId), eq(offeringApplications.state, 'applied')))
    .orderBy(asc(offeringApplications.id));
}

export function drawList(o: OfferingRow, apps: readonly ApplicationRow[]): DrawApplication[] {
  return apps.map((a) => ({
    id: a.id,
    pseudonym: a.pseudonym,
    units: a.units,
    points: o.policy.kind === 'weighted' ? a.points : 0,
  }));
}

/**
 * The close (once the window has closed and the offer price is known): bids below the offer price drop out
 * (released), the challenge points are frozen into the remaining applications, and the hash of that
 * canonical list, exactly the list the draw will take, is published.
 */
export async function closeWindow(
  tx: Tx,
  o: OfferingRow,
  now: Date,
  outbox: EventOutbox,
): Promise<{ applications: number; list_hash: string; below_offer: number }> {
  const price = o.offerPrice ?? 0;
  const apps = await liveApplications(tx, o.id);
  const below = apps.filter((a) => a.bidPrice !== null && a.bidPrice < price);
  for (const a of [...below].sort((x, y) => x.userId - y.userId)) {
    await lockUser(tx, a.userId);
    await release(tx, o, a, a.reserved, now);
    await tx
      .update(offeringApplications)
      .set({ state: 'lost', reason: 'bid_below_offer', reserved: 0, updatedAt: now })
      .where(eq(offeringApplications.id, a.id));
    await notify(tx, outbox, a.userId, 'offering.lost', { code: o.code, offering_id: o.id }, now);
  }
  if (o.policy.kind === 'weighted' && apps.length > 0) {
    await tx.execute(sql`update offering_applications a set points = p.points
      from ipo_points p where p.user_id = a.user_id and a.offering_id = ${o.id} and a.state = 'applied'`);
  }
  const frozen = await liveApplications(tx, o.id);
  const hash = listHash(drawList(o, frozen));
  await tx.update(offerings).set({ listHash: hash }).where(eq(offerings.id, o.id));
  return { applications: frozen.length, list_hash: hash, below_offer: below.length };
}

/**
 * Writes a delivered holding (現物) at the offer price into the application's account (ADR 0035). NISA is
 * checked against the growth quota again: the quota already counts this application as pending, so it still
 * fits when nothing is over its limit; when something is, the shares go to 特定 (一般 without a specific
 * account), the application records where they went, and the customer is told. An application from before the
 * choice (no account) follows the old rule: the default account, NISA → 特定.
 */
async function deliver(
  tx: Tx,
  o: OfferingRow,
  a: ApplicationRow,
  now: Date,
  outbox: EventOutbox,
): Promise<{ positionId: number; account: 'specific' | 'general' | 'nisa' }> {
  const shares = a.wonUnits * o.unitShares;
  const price = sen(o.offerPrice ?? 0);
  const bookValue = sen(shares * price);
  const { choice, holdings } = await readAccountAndHoldings(tx, a.userId, o.code);
  const taxable = heldAccounts(choice).includes('specific') ? 'specific' : 'general';
  let account = a.taxAccount ?? choice?.defaultAccount ?? 'specific';
  if (account === 'nisa' && a.taxAccount === null) account = taxable;
  if (account === 'nisa' && !heldAccounts(choice).includes('nisa')) account = taxable;
  if (account === 'nisa') {
    const q = await nisaQuota(tx, a.userId, now);
    const fits =
      q.annual_used <= q.annual_limit &&
      q.lifetime_used <= q.growth_lifetime_limit &&
      q.lifetime_used <= q.lifetime_limit;
    if (!fits) {
      account = taxable;
      await notify(
        tx,
        outbox,
        a.userId,
        'offering.nisa_fallback',
        { code: o.code, shares, offering_id: o.id },
        now,
      );
    }
  }
  const held = holdings.find((h) => h.account === account);
  if (held) {
    await tx
      .update(positions)
      .set({
        quantity: sql`${positions.quantity} + ${shares}`,
        avgPrice: movingAverage(held, price, shares),
        bookValue: sql`${positions.bookValue} + ${bookValue}`,
      })
      .where(eq(positions.id, held.id));
    return { positionId: held.id, account };
  }
  const [p] = await tx
    .insert(positions)
    .values({
      userId: a.userId,
      code: o.code,
      direction: 'long',
      leverage: 1,
      taxAccount: account,
      marginType: 'cash',
      bookValue,
      status: 'holding',
      quantity: shares,
      avgPrice: price,
      openedAt: now,
    })
    .returning({ id: positions.id });
  if (!p) throw new Error('position was not written');
  return { positionId: p.id, account };
}

/**
 * The draw (once per offering, in runOnce): applications bidding below the offer price lose; the rest are
 * drawn with the committed seed; losers are released (and earn a challenge point for an IPO); IPO winners
 * keep what the purchase needs reserved; a distribution's winners pay at once and receive their shares.
 */
export async function runDraw(tx: Tx, o: OfferingRow, now: Date, outbox: EventOutbox) {
  const apps = await liveApplications(tx, o.id);
  const price = o.offerPrice ?? 0;
  // the list drawn is exactly the list whose hash the close published
  const result = draw({
    seed: o.seed,
    offering_units: o.offeringUnits,
    policy: o.policy,
    applications: drawList(o, apps),
  });
  if (result.list_hash !== o.listHash) throw new Error(`offering ${o.id}: the list changed after the close`);
  const won = new Map(result.allocations.map((x) => [x.id, x.units]));
  for (const a of [...apps].sort((x, y) => x.userId - y.userId)) await lockUser(tx, a.userId);
  let winners = 0;
  for (const a of apps) {
    const units = won.get(a.id) ?? 0;
    if (units === 0) {
      await release(tx, o, a, a.reserved, now);
      await tx
        .update(offeringApplications)
        .set({ state: 'lost', reason: 'not_drawn', reserved: 0, updatedAt: now })
        .where(eq(offeringApplications.id, a.id));
      if (o.kind === 'ipo') {
        await tx
          .insert(ipoPoints)
          .values({ userId: a.userId, points: 1 })
          .onConflictDoUpdate({ target: ipoPoints.userId, set: { points: sql`${ipoPoints.points} + 1` } });
      }
      await notify(tx, outbox, a.userId, 'offering.lost', { code: o.code, offering_id: o.id }, now);
      continue;
    }
    winners++;
    const due = units * o.unitShares * price;
    await release(tx, o, a, a.reserved - due, now);
    if (o.kind === 'ipo' && o.policy.kind === 'weighted') {
      await tx.update(ipoPoints).set({ points: 0 }).where(eq(ipoPoints.userId, a.userId));
    }
    if (o.kind === 'ipo') {
      await tx
        .update(offeringApplications)
        .set({ state: 'won', wonUnits: units, reserved: Math.min(a.reserved, due), updatedAt: now })
        .where(eq(offeringApplications.id, a.id));
      await notify(tx, outbox, a.userId, 'offering.won', { code: o.code, units, offering_id: o.id }, now);
    } else {
      await postEntry(tx, {
        kind: 'ipo_payment',
        memo: `Purchase of ${o.code}: ${units * o.unitShares} shares at ${price}`,
        params: { code: o.code, shares: units * o.unitShares, price, application_id: a.id },
        ref: `offering-application:${a.id}`,
        at: now,
        lines: [
          { user: a.userId, account: 'reserved', amount: negSen(sen(due)) },
          { house: 'market_settlement', amount: sen(due) },
        ],
      });
      const { positionId, account } = await deliver(tx, o, { ...a, wonUnits: units }, now, outbox);
      await tx
        .update(offeringApplications)
        .set({
          state: 'approved',
          wonUnits: units,
          reserved: 0,
          amountPaid: due,
          positionId,
          taxAccount: account,
          updatedAt: now,
        })
        .where(eq(offeringApplications.id, a.id));
      await notify(
        tx,
        outbox,
        a.userId,
        'offering.filled',
        { code: o.code, units, price, offering_id: o.id },
        now,
      );
    }
  }
  await tx
    .update(offerings)
    .set({ allocations: result.allocations, drawOrder: result.order, drawnAt: now })
    .where(eq(offerings.id, o.id));
  return { applications: apps.length, winners, list_hash: result.list_hash };
}

/** At the purchase deadline: unconfirmed wins lapse and their reservations are released. */
export async function lapseWins(tx: Tx, o: OfferingRow, now: Date, outbox: EventOutbox) {
  const open = await tx
    .select()
    .from(offeringApplications)
    .where(and(eq(offeringApplications.offeringId, o.id), eq(offeringApplications.state, 'won')))
    .orderBy(asc(offeringApplications.userId));
  for (const a of open) {
    await lockUser(tx, a.userId);
    await release(tx, o, a, a.reserved, now);
    await tx
      .update(offeringApplications)
      .set({ state: 'lapsed', reserved: 0, updatedAt: now })
      .where(eq(offeringApplications.id, a.id));
    await notify(tx, outbox, a.userId, 'offering.lapsed', { code: o.code, offering_id: o.id }, now);
  }
  return { lapsed: open.length };
}

/** On the listing date: approved IPO purchases become holdings at the offer price. */
export async function listShares(tx: Tx, o: OfferingRow, now: Date, outbox: EventOutbox) {
  const paid = await tx
    .select()
    .from(offeringApplications)
    .where(
      and(
        eq(offeringApplications.offeringId, o.id),
        eq(offeringApplications.state, 'approved'),
        isNull(offeringApplications.positionId),
      ),
    )
    .orderBy(asc(offeringApplications.userId));
  for (const a of paid) {
    await lockUser(tx, a.userId);
    const { positionId, account } = await deliver(tx, o, a, now, outbox);
    await tx
      .update(offeringApplications)
      .set({ positionId, taxAccount: account, updatedAt: now })
      .where(eq(offeringApplications.id, a.id));
    await notify(
      tx,
      outbox,
      a.userId,
      'offering.delivered',
      { code: o.code, shares: a.wonUnits * o.unitShares, offering_id: o.id },
      now,
    );
  }
  return { delivered: paid.length };
}

/** Offerings for users, newest window first, with their application counts. */
export async function listOfferings(db: Executor, kind?: 'ipo' | 'distribution') {
  const rows = await db
    .select()
    .from(offerings)
    .where(kind ? eq(offerings.kind, kind) : undefined)
    .orderBy(desc(offerings.windowOpen), desc(offerings.id))
    .limit(200);
  const stats = await applicationStats(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ row: r, stats: stats.get(r.id) ?? { applications: 0, units: 0 } }));
}

export async function applicationStats(db: Executor, ids: number[]) {
  const out = new Map<number, { applications: number; units: number }>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      id: offeringApplications.offeringId,
      n: sql<number>`count(*)::int`,
      units: sql<number>`coalesce(sum(${offeringApplications.units}), 0)::int`,
    })
    .from(offeringApplications)
    .where(and(inArray(offeringApplications.offeringId, ids), ne(offeringApplications.state, 'withdrawn')))
    .groupBy(offeringApplications.offeringId);
  for (const r of rows) out.set(r.id, { applications: r.n, units: r.units });
  return out;
}
