import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import {
  INITIAL_NAV_SEN,
  formatYen,
  negSen,
  sen,
  type Locale,
  type TProduct,
  type TProductDetail,
  type TProductRecord,
  type TProductVersionBody,
  type TPublishProductBody,
} from '@kabuto/contract';
import { productNavs, productRecords, productRiskAcks, productVersions, products } from '../../db/schema.js';
import type { Db, Executor, Tx } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { getInstrument } from '../../market/instruments.js';
import type { MarketDataProvider } from '../../market/provider.js';
import { audit } from '../console/audit.js';
import {
  drawEntryIds,
  lockUser,
  lockUsers,
  postEntry,
  prepareEntries,
  userBalances,
  writeEntries,
  type EntryDraft,
} from '../ledger/ledger.js';
import { intArrayLiteral, textArrayLiteral } from '../../db/array-literal.js';
import { run, statement } from '../../db/statement.js';
import { readsJapanese } from '../market/views.js';
import { notify, notifyMany, type EventOutbox } from '../messages/messages.js';
import { closeOf, lastStrikeDate, navDateFor, unitsFor, valueOf } from './nav.js';

/**
 * Follow-up products (issue 17, ADR 0027): publishing and versioning (console), buying and selling
 * (users), the records, and settling applications and redemptions once their NAV is struck (nav-job.ts).
 */

export type ProductRow = typeof products.$inferSelect;
export type RecordRow = typeof productRecords.$inferSelect;
type VersionRow = typeof productVersions.$inferSelect;

function checkConstituents(list: readonly { code: string }[]): void {
  for (const c of list) {
    if (!getInstrument(c.code)) throw new AppError('PRODUCT_UNKNOWN_STOCK', { code: c.code });
  }
}

/** Current prices of the constituents: the base the first NAV is measured from. */
async function currentPrices(market: MarketDataProvider, codes: readonly string[], date: string) {
  const closes: Record<string, number> = {};
  for (const code of codes) closes[code] = await closeOf(market, code, date);
  return closes;
}

/**
 * Publishes a product: its first version, and its base NAV (10,000 yen per 10,000 units) dated the latest
 * struck business date, measured from the constituents' prices now. Audited.
 */
export async function publishProduct(
  db: Db,
  market: MarketDataProvider,
  operatorId: number | null,
  body: TPublishProductBody,
  now: Date,
): Promise<number> {
  checkConstituents(body.constituents);
  if (body.deadline < tokyoParts(now).date) throw new AppError('PRODUCT_DEADLINE_PAST');
  const base = lastStrikeDate(now);
  const closes = await currentPrices(
    market,
    body.constituents.map((c) => c.code),
    tokyoParts(now).date,
  );
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(products)
      .values({
        issuer: body.issuer,
        name: body.name,
        strategy: body.strategy,
        riskDisclosure: body.risk_disclosure,
        fundCap: body.fund_cap,
        deadline: body.deadline,
        minInvestment: body.min_investment,
        publishedBy: operatorId,
        createdAt: now,
      })
      .returning({ id: products.id });
    if (!row) throw new Error('product was not written');
    await tx.insert(productVersions).values({
      productId: row.id,
      version: 1,
      constituents: body.constituents,
      feePpm: body.management_rate_ppm,
      effectiveDate: base,
      createdBy: operatorId,
      createdAt: now,
    });
    await tx
      .insert(productNavs)
      .values({ productId: row.id, date: base, nav: INITIAL_NAV_SEN, closes, createdAt: now });
    await audit(tx, {
      operatorId,
      action: 'product.publish',
      targetType: 'product',
      targetId: row.id,
      after: body,
      at: now,
    });
    return row.id;
  });
}

/**
 * A new version of a product's portfolio and fee, effective from the next NAV to be struck; audited, and
 * every holder (following or redeeming) is told in a message. Nothing about a holder's units changes.
 */
export async function newProductVersion(
  db: Db,
  operatorId: number,
  productId: number,
  body: TProductVersionBody,
  now: Date,
  outbox: EventOutbox,
): Promise<number> {
  checkConstituents(body.constituents);
  return db.transaction(async (tx) => {
    const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('update');
    if (!product) throw new AppError('PRODUCT_NOT_FOUND');
    const [before] = await tx
      .select()
      .from(productVersions)
      .where(and(eq(productVersions.productId, productId), eq(productVersions.version, product.version)));
    const version = product.version + 1;
    const from = navDateFor(now);
    await tx.insert(productVersions).values({
      productId,
      version,
      constituents: body.constituents,
      feePpm: body.management_rate_ppm,
      effectiveDate: from,
      reason: body.reason,
      createdBy: operatorId,
      createdAt: now,
    });
    await tx.update(products).set({ version }).where(eq(products.id, productId));
    await audit(tx, {
      operatorId,
      action: 'product.version',
      targetType: 'product',
      targetId: productId,
      reason: body.reason,
      before: before ? { constituents: before.constituents, management_rate_ppm: before.feePpm } : null,
      after: {
        version,
        constituents: body.constituents,
        management_rate_ppm: body.management_rate_ppm,
        effective_date: from,
      },
      at: now,
    });
    const holders = await tx
      .selectDistinct({ userId: productRecords.userId })
      .from(productRecords)
      .where(
        and(
          eq(productRecords.productId, productId),
          inArray(productRecords.status, ['pending', 'following', 'redeeming']),
        ),
      );
    for (const h of holders) {
      await notify(
        tx,
        outbox,
        h.userId,
        'product.version',
        { product: product.name, product_id: productId, version, from, reason: body.reason },
        now,
      );
    }
    return version;
  });
}

/** The version in force for the NAV of `date`: the latest whose effective date is on or before it. */
export async function versionFor(
  db: Executor,
  productId: number,
  date: string,
): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(productVersions)
    .where(and(eq(productVersions.productId, productId), lte(productVersions.effectiveDate, date)))
    .orderBy(desc(productVersions.version))
    .limit(1);
  return row;
}

/** The product's two latest NAVs (latest first). */
async function latestNavs(db: Executor, productId: number) {
  return db
    .select({ date: productNavs.date, nav: productNavs.nav })
    .from(productNavs)
    .where(eq(productNavs.productId, productId))
    .orderBy(desc(productNavs.date))
    .limit(2);
}

/** Units outstanding × latest NAV, plus the applications waiting for their NAV (sen). */
async function fundSize(db: Executor, productId: number, nav: number): Promise<number> {
  const [row] = await db
    .select({
      units: sql<string>`coalesce(sum(${productRecords.units}) filter (where ${productRecords.status} in ('following', 'redeeming')), 0)::text`,
      pending: sql<string>`coalesce(sum(${productRecords.amount}) filter (where ${productRecords.status} = 'pending'), 0)::text`,
    })
    .from(productRecords)
    .where(eq(productRecords.productId, productId));
  return valueOf(Number(row?.units ?? 0), nav) + Number(row?.pending ?? 0);
}

async function productView(
  db: Executor,
  product: ProductRow,
  locale: Locale,
  userId: number | null,
  now: Date,
): Promise<TProduct> {
  const [latest] = await latestNavs(db, product.id);
  const nav = latest?.nav ?? INITIAL_NAV_SEN;
  const [version] = await db
    .select()
    .from(productVersions)
    .where(and(eq(productVersions.productId, product.id), eq(productVersions.version, product.version)));
  const ja = readsJapanese(locale);
  const acked =
    userId === null
      ? []
      : await db
          .select({ v: productRiskAcks.version })
          .from(productRiskAcks)
          .where(
            and(
              eq(productRiskAcks.userId, userId),
              eq(productRiskAcks.productId, product.id),
              eq(productRiskAcks.version, product.version),
            ),
          );
  return {
    id: product.id,
    version: product.version,
    issuer: product.issuer,
    name: product.name,
    strategy: product.strategy,
    risk_disclosure: product.riskDisclosure,
    constituents: (version?.constituents ?? []).map((c) => {
      const instrument = getInstrument(c.code);
      return { ...c, name: instrument ? (ja ? instrument.name_ja : instrument.name_en) : c.code };
    }),
    management_rate_ppm: version?.feePpm ?? 0,
    fund_cap: sen(product.fundCap),
    fund_size: sen(await fundSize(db, product.id, nav)),
    deadline: product.deadline,
    min_investment: sen(product.minInvestment),
    nav: sen(nav),
    nav_date: latest?.date ?? '',
    status: tokyoParts(now).date > product.deadline ? 'closed' : 'open',
    risk_acknowledged: acked.length > 0,
  };
}

export async function listProducts(db: Executor, locale: Locale, userId: number | null, now: Date) {
  const rows = await db.select().from(products).orderBy(asc(products.id));
  const items: TProduct[] = [];
  for (const row of rows) items.push(await productView(db, row, locale, userId, now));
  return { items };
}

export async function productDetail(
  db: Executor,
  id: number,
  locale: Locale,
  userId: number | null,
  now: Date,
): Promise<TProductDetail> {
  const [row] = await db.select().from(products).where(eq(products.id, id));
  if (!row) throw new AppError('PRODUCT_NOT_FOUND');
  const history = await db
    .select({ date: productNavs.date, nav: productNavs.nav })
    .from(productNavs)
    .where(eq(productNavs.productId, id))
    .orderBy(asc(productNavs.date));
  return {
    ...(await productView(db, row, locale, userId, now)),
    history: history.map((h) => ({ date: h.date, nav: sen(h.nav) })),
  };
}

/** A typed yen amount with at most two decimals (checked by the schema) in sen, exactly. */
export function amountSen(amount: string): number {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * Applies for a product, under the user's lock (the caller, `idempotent`, took it): an open brokerage
 * account, the product open (deadline), at least the minimum, within the fund cap (the product's row is
 * locked, so two applications cannot both pass it), at most the free cash, the risk disclosure acknowledged.
 * The amount moves to the user's reserved account; the record is pending until its NAV is struck.
 */
export async function buyProduct(
  tx: Tx,
  deps: { now: Date; locale: Locale },
  userId: number,
  productId: number,
  input: { amount: string; acknowledge_risk?: boolean | undefined },
  outbox: EventOutbox,
): Promise<RecordRow> {
  const { now, locale } = deps;
  const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('update');
  if (!product) throw new AppError('PRODUCT_NOT_FOUND');
  if (tokyoParts(now).date > product.deadline) throw new AppError('PRODUCT_CLOSED');
  const amount = amountSen(input.amount);
  if (amount < product.minInvestment) {
    throw new AppError('PRODUCT_BELOW_MIN', { min: formatYen(sen(product.minInvestment), locale) });
  }
  const [latest] = await latestNavs(tx, productId);
  const size = await fundSize(tx, productId, latest?.nav ?? INITIAL_NAV_SEN);
  if (size + amount > product.fundCap) {
    const available = Math.max(0, product.fundCap - size);
    throw new AppError('PRODUCT_CAP_EXCEEDED', { available: formatYen(sen(available), locale) });
  }
  const acked = await tx
    .select({ v: productRiskAcks.version })
    .from(productRiskAcks)
    .where(
      and(
        eq(productRiskAcks.userId, userId),
        eq(productRiskAcks.productId, productId),
        eq(productRiskAcks.version, product.version),
      ),
    );
  if (acked.length === 0) {
    if (!input.acknowledge_risk) throw new AppError('PRODUCT_RISK_NOT_ACKNOWLEDGED');
    await tx
      .insert(productRiskAcks)
      .values({ userId, productId, version: product.version, at: now })
      .onConflictDoNothing();
  }
  const { cash } = await userBalances(tx, userId);
  if (amount > cash) throw new AppError('INSUFFICIENT_FUNDS');
  const navDate = navDateFor(now);
  const [row] = await tx
    .insert(productRecords)
    .values({ userId, productId, status: 'pending', amount, buyAt: now, buyNavDate: navDate })
    .returning();
  if (!row) throw new Error('record was not written');
  await postEntry(tx, {
    kind: 'fund_apply',
    memo: `Cash held for application to ${product.name} (record ${row.id})`,
    params: { product: product.name, record_id: row.id, amount },
    ref: `product_record:${row.id}`,
    at: now,
    lines: [
      { user: userId, account: 'cash', amount: negSen(sen(amount)) },
      { user: userId, account: 'reserved', amount: sen(amount) },
    ],
  });
  await notify(
    tx,
    outbox,
    userId,
    'product.applied',
    { product: product.name, record_id: row.id, amount, nav_date: navDate },
    now,
  );
  return row;
}

/**
 * Sells a following record (after the app's confirm prompt): it is redeemed at the next NAV (blind pricing,
 * as a purchase), so it goes to redeeming now and to follow ended when that NAV is struck.
 */
export async function sellRecord(
  tx: Tx,
  now: Date,
  userId: number,
  recordId: number,
  outbox: EventOutbox,
): Promise<RecordRow> {
  await lockUser(tx, userId);
  const [record] = await tx
    .select()
    .from(productRecords)
    .where(and(eq(productRecords.id, recordId), eq(productRecords.userId, userId)));
  if (!record) throw new AppError('PRODUCT_RECORD_NOT_FOUND');
  if (record.status === 'pending') throw new AppError('PRODUCT_RECORD_PENDING');
  if (record.status !== 'following') throw new AppError('PRODUCT_RECORD_NOT_FOLLOWING');
  const navDate = navDateFor(now);
  const [row] = await tx
    .update(productRecords)
    .set({ status: 'redeeming', sellAt: now, sellNavDate: navDate })
    .where(and(eq(productRecords.id, recordId), eq(productRecords.status, 'following')))
    .returning();
  if (!row) throw new AppError('PRODUCT_RECORD_NOT_FOLLOWING');
  const [product] = await tx
    .select({ name: products.name })
    .from(products)
    .where(eq(products.id, row.productId));
  await notify(
    tx,
    outbox,
    userId,
    'product.redeem_requested',
    { product: product?.name ?? '', record_id: row.id, nav_date: navDate },
    now,
  );
  return row;
}

/**
 * Records settled per transaction by the NAV job (bench/dividends.ts times 100,000). The settling updates
 * name their ids twice (joined to their values, and `= any`) so that PostgreSQL finds the rows by the primary
 * key: joined alone, the planner hashed the whole table for every batch (a sequential scan of 100,000 rows).
 */
export const SETTLE_BATCH = 1_000;

const settlePurchases = statement<{
  ids: string;
  statuses: string;
  navs: string;
  units: string;
  costs: string;
  ended: string;
  now: string;
}>(
  'products_settle_purchases',
  (p) => `update product_records r set status = v.status, buy_nav = v.nav, units = v.units, cost = v.cost,
      ended_at = case when v.ended then ${p('now')}::timestamptz else null end
    from unnest(${p('ids')}::int[], ${p('statuses')}::text[], ${p('navs')}::bigint[], ${p('units')}::bigint[],
      ${p('costs')}::bigint[], ${p('ended')}::boolean[]) as v(id, status, nav, units, cost, ended)
    where r.id = v.id and r.id = any(${p('ids')}::int[]) and r.status = 'pending'`,
);
const settleRedemptions = statement<{ ids: string; navs: string; proceeds: string; now: string }>(
  'products_settle_redemptions',
  (p) => `update product_records r set status = 'ended', sell_nav = v.nav, proceeds = v.proceeds,
      ended_at = ${p('now')}::timestamptz
    from unnest(${p('ids')}::int[], ${p('navs')}::bigint[], ${p('proceeds')}::bigint[]) as v(id, nav, proceeds)
    where r.id = v.id and r.id = any(${p('ids')}::int[]) and r.status = 'redeeming'`,
);

/** A record due for settlement, with its NAV: settleRecords reads them under the holders' locks. */
const dueRows = statement<
  { ids: string },
  {
    id: number;
    user_id: number;
    status: string;
    amount: string;
    units: string | null;
    nav: string;
    name: string;
  }
>(
  'products_due_rows',
  (p) => `select r.id, r.user_id, r.status, r.amount::text as amount, r.units::text as units,
      n.nav::text as nav, p.name
    from product_records r
    join products p on p.id = r.product_id
    join product_navs n on n.product_id = r.product_id
      and n.date = case when r.status = 'pending' then r.buy_nav_date else r.sell_nav_date end
    where r.id = any(${p('ids')}::int[]) and r.status in ('pending', 'redeeming')
    order by r.id`,
);

/** A record waiting for a NAV that has been struck, and its holder (dueRecords). */
export interface DueRecord {
  id: number;
  userId: number;
}

/**
 * Settles records whose NAV has been struck, in one transaction under their holders' locks (lockUsers): a
 * pending purchase gets its units (unitsFor) and the unused rest back; a redeeming record is paid its
 * proceeds (valueOf). The records' status is re-read under the locks, so a record is settled once however
 * many passes or processes try; the entries, updates and messages are written a batch at a time
 * (prepareEntries, multi-row statements), in two round trips: the locks, the entries' ids and the records
 * sent together; then the updates, the entries and the messages sent one behind the other. A record's holder
 * never changes, so the holders to lock come with the records (dueRecords). Answers how many settled.
 */
export async function settleRecords(
  db: Db,
  records: readonly DueRecord[],
  now: Date,
  outbox: EventOutbox,
): Promise<number> {
  if (records.length === 0) return 0;
  const ids = intArrayLiteral(records.map((r) => r.id));
  return db.transaction(async (tx) => {
    // ids for every record: those another pass settled meanwhile leave gaps in the entries' ids, as a
    // rolled-back transaction does
    const [, drawn, rows] = await Promise.all([
      lockUsers(
        tx,
        records.map((r) => r.userId),
      ),
      drawEntryIds(tx, records.length),
      run(tx, dueRows, { ids }),
    ]);
    const drafts: EntryDraft[] = [];
    const notes: { userId: number; kind: string; params: Record<string, unknown> }[] = [];
    const bought = {
      ids: [] as number[],
      statuses: [] as string[],
      navs: [] as number[],
      units: [] as number[],
      costs: [] as number[],
      ended: [] as string[],
    };
    const sold = { ids: [] as number[], navs: [] as number[], proceeds: [] as number[] };
    for (const record of rows) {
      const nav = Number(record.nav);
      const name = record.name;
      if (record.status === 'pending') {
        const amount = Number(record.amount);
        const { units, cost, refund } = unitsFor(amount, nav);
        bought.ids.push(record.id);
        bought.statuses.push(units > 0 ? 'following' : 'ended');
        bought.navs.push(nav);
        bought.units.push(units);
        bought.costs.push(cost);
        bought.ended.push(units === 0 ? 'true' : 'false');
        drafts.push({
          kind: 'fund_buy',
          memo: `${name}: ${units} units at NAV ${nav} (record ${record.id})`,
          params: { product: name, record_id: record.id, units, nav, cost, refund },
          ref: `product_record:${record.id}`,
          at: now,
          lines: [
            { user: record.user_id, account: 'reserved', amount: negSen(sen(amount)) },
            { house: 'fund_custody', amount: sen(cost) },
            { user: record.user_id, account: 'cash', amount: sen(refund) },
          ],
        });
        notes.push({
          userId: record.user_id,
          kind: 'product.following',
          params: { product: name, record_id: record.id, units, nav },
        });
        continue;
      }
      const units = Number(record.units ?? 0);
      const proceeds = valueOf(units, nav);
      sold.ids.push(record.id);
      sold.navs.push(nav);
      sold.proceeds.push(proceeds);
      if (proceeds > 0) {
        drafts.push({
          kind: 'fund_redeem',
          memo: `${name}: ${units} units redeemed at NAV ${nav} (record ${record.id})`,
          params: { product: name, record_id: record.id, units, nav, proceeds },
          ref: `product_record:${record.id}`,
          at: now,
          lines: [
            { house: 'fund_custody', amount: negSen(sen(proceeds)) },
            { user: record.user_id, account: 'cash', amount: sen(proceeds) },
          ],
        });
      }
      notes.push({
        userId: record.user_id,
        kind: 'product.ended',
        params: { product: name, record_id: record.id, proceeds },
      });
    }
    const entries =
      drafts.length > 0 ? await prepareEntries(tx, drawn.slice(0, drafts.length), drafts) : null;
    const at = now.toISOString();
    const writes: Promise<unknown>[] = [];
    if (bought.ids.length > 0) {
      writes.push(
        run(tx, settlePurchases, {
          ids: intArrayLiteral(bought.ids),
          statuses: textArrayLiteral(bought.statuses),
          navs: intArrayLiteral(bought.navs),
          units: intArrayLiteral(bought.units),
          costs: intArrayLiteral(bought.costs),
          ended: textArrayLiteral(bought.ended),
          now: at,
        }),
      );
    }
    if (sold.ids.length > 0) {
      writes.push(
        run(tx, settleRedemptions, {
          ids: intArrayLiteral(sold.ids),
          navs: intArrayLiteral(sold.navs),
          proceeds: intArrayLiteral(sold.proceeds),
          now: at,
        }),
      );
    }
    if (entries) writes.push(writeEntries(tx, entries));
    writes.push(notifyMany(tx, outbox, notes, now));
    await Promise.all(writes);
    return rows.length;
  });
}

/** Records waiting for a NAV that has been struck: pending purchases and redemptions, with their holders. */
export async function dueRecords(db: Executor): Promise<DueRecord[]> {
  return db
    .select({ id: productRecords.id, userId: productRecords.userId })
    .from(productRecords)
    .innerJoin(
      productNavs,
      and(
        eq(productNavs.productId, productRecords.productId),
        sql`${productNavs.date} = case when ${productRecords.status} = 'pending' then ${productRecords.buyNavDate} else ${productRecords.sellNavDate} end`,
      ),
    )
    .where(inArray(productRecords.status, ['pending', 'redeeming']))
    .orderBy(asc(productRecords.id));
}

/** The user's records, newest first, with their derived earnings. */
export async function listRecords(db: Executor, userId: number): Promise<TProductRecord[]> {
  const rows = await db
    .select({ record: productRecords, name: products.name, issuer: products.issuer })
    .from(productRecords)
    .innerJoin(products, eq(products.id, productRecords.productId))
    .where(eq(productRecords.userId, userId))
    .orderBy(desc(productRecords.id));
  const navs = new Map<number, { date: string; nav: number }[]>();
  const out: TProductRecord[] = [];
  for (const { record, name, issuer } of rows) {
    let two = navs.get(record.productId);
    if (!two) {
      two = await latestNavs(db, record.productId);
      navs.set(record.productId, two);
    }
    out.push(recordView(record, name, issuer, two));
  }
  return out;
}

/**
 * A record as the user sees it. Yesterday's earnings = value at the latest NAV − value at the NAV before it
 * (when the units were held through both); total profit = value − cost (following) or proceeds − cost
 * (ended). Both derived at reading time, never stored.
 */
export function recordView(
  r: RecordRow,
  name: string,
  issuer: string,
  latestTwo: readonly { date: string; nav: number }[],
): TProductRecord {
  const [latest, before] = latestTwo;
  const holding = r.status === 'following' || r.status === 'redeeming';
  const units = r.units ?? 0;
  const value = holding && latest ? valueOf(units, latest.nav) : null;
  const yesterday =
    holding && latest && before && before.date >= r.buyNavDate
      ? valueOf(units, latest.nav) - valueOf(units, before.nav)
      : null;
  const total =
    r.cost === null
      ? null
      : r.status === 'ended'
        ? r.proceeds === null
          ? null
          : r.proceeds - r.cost
        : value === null
          ? null
          : value - r.cost;
  const maybe = (v: number | null) => (v === null ? null : sen(v));
  return {
    id: r.id,
    product_id: r.productId,
    product_name: name,
    issuer,
    status: r.status,
    amount: sen(r.amount),
    cost: maybe(r.cost),
    units: r.units,
    buy_at: r.buyAt.toISOString(),
    buy_nav_date: r.buyNavDate,
    buy_nav: maybe(r.buyNav),
    sell_at: r.sellAt?.toISOString() ?? null,
    sell_nav_date: r.sellNavDate,
    sell_nav: maybe(r.sellNav),
    proceeds: maybe(r.proceeds),
    ended_at: r.endedAt?.toISOString() ?? null,
    yesterday_earnings: maybe(yesterday),
    total_profit: maybe(total),
    value: maybe(value),
  };
}

export async function recordOf(db: Executor, userId: number, recordId: number): Promise<TProductRecord> {
  const [row] = await db
    .select({ record: productRecords, name: products.name, issuer: products.issuer })
    .from(productRecords)
    .innerJoin(products, eq(products.id, productRecords.productId))
    .where(and(eq(productRecords.id, recordId), eq(productRecords.userId, userId)));
  if (!row) throw new AppError('PRODUCT_RECORD_NOT_FOUND');
  return recordView(row.record, row.name, row.issuer, await latestNavs(db, row.record.productId));
}
