import { and, asc, desc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import {
  sen,
  withholdingFor,
  type Locale,
  type TDividendAnnounceBody,
  type TDividendAnnouncement,
  type TDividendsView,
  type TUpcomingDividend,
} from '@kabuto/contract';
import { dividendAnnouncements, dividendPayments, orders, positions, watchlist } from '../../db/schema.js';
import type { Db, Executor, Tx } from '../../db/types.js';
import { intArrayLiteral, textArrayLiteral } from '../../db/array-literal.js';
import { run, statement } from '../../db/statement.js';
import { AppError } from '../../lib/app-error.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { getInstrument } from '../../market/instruments.js';
import { audit } from '../console/audit.js';
import { hasRun, runOnce } from '../jobs/run-once.js';
import type { ScheduledJob } from '../jobs/job.js';
import { drawEntryIds, lockUsers, prepareEntries, writeEntries } from '../ledger/ledger.js';
import { readsJapanese } from '../market/views.js';
import { notifyMany, type EventOutbox } from '../messages/messages.js';
import { taxSettings } from '../settings/settings.js';
import { adjustmentOf, businessDaysUntil, dividendDates, entitlementCutoff } from './dates.js';

/**
 * Dividends from holdings (issue 17, ADR 0027): announcements (console, or the demo data file), who is
 * entitled at the end of the cum date, and the payment job that credits them on the payment date through
 * the ledger, with tax withheld, and settles margin positions' dividend adjustments.
 */

type AnnouncementRow = typeof dividendAnnouncements.$inferSelect;

const nameOf = (code: string, locale: Locale) => {
  const instrument = getInstrument(code);
  if (!instrument) return code;
  return readsJapanese(locale) ? instrument.name_ja : instrument.name_en;
};

export function announcementView(row: AnnouncementRow, locale: Locale): TDividendAnnouncement {
  return {
    id: row.id,
    code: row.code,
    name: nameOf(row.code, locale),
    per_share: sen(row.perShare),
    record_date: row.recordDate,
    cum_date: row.cumDate,
    ex_date: row.exDate,
    payment_date: row.paymentDate,
    status: row.paidAt ? 'paid' : 'announced',
    source: row.source,
  };
}

/**
 * Announces a dividend: a stock of the universe, a cum date not yet past (today at the earliest), a payment
 * date after the record date, one announcement per stock and record date. Audited.
 */
export async function announceDividend(
  db: Executor,
  operatorId: number | null,
  body: TDividendAnnounceBody,
  now: Date,
  source: string | null = null,
): Promise<AnnouncementRow> {
  if (!getInstrument(body.code)) throw new AppError('PRODUCT_UNKNOWN_STOCK', { code: body.code });
  const { cumDate, exDate } = dividendDates(body.record_date);
  if (cumDate < tokyoParts(now).date) throw new AppError('DIVIDEND_DATE_PAST');
  if (body.payment_date <= body.record_date) throw new AppError('DIVIDEND_DATES_ORDER');
  const [row] = await db
    .insert(dividendAnnouncements)
    .values({
      code: body.code,
      perShare: body.per_share,
      recordDate: body.record_date,
      cumDate,
      exDate,
      paymentDate: body.payment_date,
      source,
      publishedBy: operatorId,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError('DIVIDEND_DUPLICATE');
  await audit(db, {
    operatorId,
    action: 'dividend.announce',
    targetType: 'dividend',
    targetId: row.id,
    after: { ...body, cum_date: cumDate, ex_date: exDate, source },
    at: now,
  });
  return row;
}

export async function listAnnouncements(db: Executor, locale: Locale) {
  const rows = await db.select().from(dividendAnnouncements).orderBy(desc(dividendAnnouncements.recordDate));
  return { items: rows.map((r) => announcementView(r, locale)) };
}

/** One holding entitled to an announcement: cash shares per tax account, or a margin position. */
export interface Entitlement {
  userId: number;
  kind: 'cash' | 'margin';
  taxAccount: 'specific' | 'general' | 'nisa';
  direction: 'long' | 'short';
  marginType: 'cash' | 'standard' | 'general';
  quantity: number;
}

/**
 * Who held the stock at the end of the cum date, whenever this is asked (the payment job runs weeks later):
 * cash shares = the shares held now, less cash buys executed after the cutoff, plus cash sells executed
 * after it; margin positions opened before the cutoff and not closed before it.
 */
export async function entitlements(db: Executor, code: string, cumDate: string): Promise<Entitlement[]> {
  const cutoff = entitlementCutoff(cumDate).toISOString();
  const held = await db
    .select({
      userId: positions.userId,
      taxAccount: positions.taxAccount,
      quantity: sql<string>`sum(${positions.quantity})::text`,
    })
    .from(positions)
    .where(
      and(
        eq(positions.code, code),
        eq(positions.status, 'holding'),
        eq(positions.marginType, 'cash'),
        eq(positions.direction, 'long'),
      ),
    )
    .groupBy(positions.userId, positions.taxAccount);
  const after = await db
    .select({
      userId: orders.userId,
      taxAccount: orders.taxAccount,
      quantity: sql<string>`sum(case when ${orders.side} = 'buy' then -${orders.quantity} else ${orders.quantity} end)::text`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.code, code),
        eq(orders.status, 'filled'),
        eq(orders.marginType, 'cash'),
        eq(orders.direction, 'long'),
        sql`${orders.filledAt} >= ${cutoff}::timestamptz`,
      ),
    )
    .groupBy(orders.userId, orders.taxAccount);
  const cashShares = new Map<
    string,
    { userId: number; taxAccount: Entitlement['taxAccount']; quantity: number }
  >();
  for (const r of [...held, ...after]) {
    const key = `${r.userId}:${r.taxAccount}`;
    const found = cashShares.get(key) ?? { userId: r.userId, taxAccount: r.taxAccount, quantity: 0 };
    found.quantity += Number(r.quantity);
    cashShares.set(key, found);
  }
  const margin = await db
    .select({
      userId: positions.userId,
      taxAccount: positions.taxAccount,
      direction: positions.direction,
      marginType: positions.marginType,
      quantity: sql<string>`sum(${positions.quantity})::text`,
    })
    .from(positions)
    .where(
      and(
        eq(positions.code, code),
        inArray(positions.marginType, ['standard', 'general']),
        sql`${positions.openedAt} < ${cutoff}::timestamptz`,
        sql`(${positions.status} = 'holding' or ${positions.closedAt} >= ${cutoff}::timestamptz)`,
      ),
    )
    .groupBy(positions.userId, positions.taxAccount, positions.direction, positions.marginType)
    .orderBy(asc(positions.userId));
  return [
    ...[...cashShares.values()]
      .filter((r) => r.quantity > 0)
      .map((r) => ({
        ...r,
        kind: 'cash' as const,
        direction: 'long' as const,
        marginType: 'cash' as const,
      })),
    ...margin
      .filter((m) => Number(m.quantity) > 0)
      .map((m) => ({
        userId: m.userId,
        kind: 'margin' as const,
        taxAccount: m.taxAccount,
        direction: m.direction,
        marginType: m.marginType,
        quantity: Number(m.quantity),
      })),
  ].sort((a, b) => a.userId - b.userId || a.taxAccount.localeCompare(b.taxAccount));
}

/** A batch's payment rows in one statement (array literals, whatever the batch's size). */
const insertPayments = statement<{
  announcement: number;
  users: string;
  kinds: string;
  accounts: string;
  quantities: string;
  gross: string;
  national: string;
  local: string;
  net: string;
  entries: string;
  at: Date;
}>(
  'dividends_insert_payments',
  (p) => `insert into dividend_payments (announcement_id, user_id, kind, tax_account, quantity, gross,
      tax_national, tax_local, net, entry_id, paid_at)
    select ${p('announcement')}::int, v.user_id, v.kind, v.tax_account, v.quantity, v.gross, v.tax_national,
      v.tax_local, v.net, v.entry_id, ${p('at')}::timestamptz
    from unnest(${p('users')}::int[], ${p('kinds')}::text[], ${p('accounts')}::text[], ${p('quantities')}::int[],
      ${p('gross')}::bigint[], ${p('national')}::bigint[], ${p('local')}::bigint[], ${p('net')}::bigint[],
      ${p('entries')}::int[]) as v(user_id, kind, tax_account, quantity, gross, tax_national, tax_local, net, entry_id)`,
);

/** Holdings credited per batch: their locks taken, entries, payment rows and messages written together. */
export const CREDIT_BATCH = 1_000;

type PaymentKind = 'dividend' | 'adjustment_receive' | 'adjustment_pay';

/** What one entitlement is paid: the dividend less withholding, or a margin position's adjustment. */
function creditOf(row: AnnouncementRow, e: Entitlement, rates: Awaited<ReturnType<typeof taxSettings>>) {
  const gross = e.quantity * row.perShare;
  let kind: PaymentKind;
  let national = 0;
  let local = 0;
  let net: number;
  if (e.kind === 'cash') {
    kind = 'dividend';
    if (e.taxAccount !== 'nisa') {
      const tax = withholdingFor(gross, rates);
      national = tax.national;
      local = tax.local;
    }
    net = gross - national - local;
  } else {
    net = adjustmentOf(
      gross,
      e.direction,
      e.marginType === 'general' ? 'general' : 'standard',
      rates.national_rate_pcm,
    );
    kind = net >= 0 ? 'adjustment_receive' : 'adjustment_pay';
  }
  return { e, kind, gross, national, local, net };
}

/**
 * Pays one part of an announcement's holders (one transaction, runDividendJob): for each entitlement one
 * journal entry, its payment row and a message, CREDIT_BATCH holdings at a time under their holders' locks
 * (lockUsers, prepareEntries and multi-row inserts: five statements a batch in two round trips, ADR 0037;
 * bench/dividends.ts).
 * Cash shares: the dividend less the withholding (a setting, default 15.315% + 5%, each floored to the yen on
 * the whole payment) in 特定 and 一般 accounts, none in NISA (株式数比例配分方式: dividends are received at the
 * broker). Margin: the adjustment amount, not taxed.
 */
export async function payHolders(
  tx: Tx,
  row: AnnouncementRow,
  all: readonly Entitlement[],
  at: Date,
  outbox: EventOutbox,
  batchSize = CREDIT_BATCH,
): Promise<{ announcement: number; payments: number; gross: number; net: number }> {
  const rates = await taxSettings(tx);
  let payments = 0;
  let grossTotal = 0;
  let netTotal = 0;
  for (let start = 0; start < all.length; start += batchSize) {
    const credits = all
      .slice(start, start + batchSize)
      .map((e) => creditOf(row, e, rates))
      .filter((c) => c.net !== 0 || c.national !== 0 || c.local !== 0);
    if (credits.length === 0) continue;
    // Two round trips a batch: the holders' locks and the entries' ids, sent together; then the entries,
    // the payment rows and the messages, sent one behind the other (PostgreSQL runs them in order).
    const [, entryIds] = await Promise.all([
      lockUsers(
        tx,
        credits.map((c) => c.e.userId),
      ),
      drawEntryIds(tx, credits.length),
    ]);
    const entries = await prepareEntries(
      tx,
      entryIds,
      credits.map(({ e, kind, gross, national, local, net }) => ({
        kind: kind === 'dividend' ? 'dividend' : 'dividend_adjustment',
        memo:
          kind === 'dividend'
            ? `Dividend of ${row.code}: ${e.quantity} shares x ${row.perShare} sen`
            : `Dividend adjustment of ${row.code} (${e.direction}): ${e.quantity} shares x ${row.perShare} sen`,
        params: {
          code: row.code,
          announcement_id: row.id,
          quantity: e.quantity,
          per_share: row.perShare,
          gross,
          national,
          local,
          net,
          direction: e.direction,
        },
        ref: `dividend:${row.id}`,
        at,
        lines:
          kind === 'dividend'
            ? [
                { house: 'dividend_clearing', amount: sen(-gross) },
                { user: e.userId, account: 'cash', amount: sen(net) },
                { house: 'tax_withholding_national', amount: sen(national) },
                { house: 'tax_withholding_local', amount: sen(local) },
              ]
            : [
                { house: 'dividend_clearing', amount: sen(-net) },
                { user: e.userId, account: 'cash', amount: sen(net) },
              ],
      })),
    );
    await Promise.all([
      writeEntries(tx, entries),
      run(tx, insertPayments, {
        announcement: row.id,
        users: intArrayLiteral(credits.map((c) => c.e.userId)),
        kinds: textArrayLiteral(credits.map((c) => c.kind)),
        accounts: textArrayLiteral(credits.map((c) => c.e.taxAccount)),
        quantities: intArrayLiteral(credits.map((c) => c.e.quantity)),
        gross: intArrayLiteral(credits.map((c) => c.gross)),
        national: intArrayLiteral(credits.map((c) => c.national)),
        local: intArrayLiteral(credits.map((c) => c.local)),
        net: intArrayLiteral(credits.map((c) => c.net)),
        entries: intArrayLiteral(entryIds),
        at,
      }),
      notifyMany(
        tx,
        outbox,
        credits.map(({ e, kind, gross, net }) => ({
          userId: e.userId,
          kind:
            kind === 'dividend'
              ? 'dividend.paid'
              : kind === 'adjustment_receive'
                ? 'dividend.adjustment_received'
                : 'dividend.adjustment_charged',
          params: { code: row.code, gross, net: Math.abs(net) },
        })),
        at,
      ),
    ]);
    for (const c of credits) {
      payments += 1;
      grossTotal += c.gross;
      netTotal += c.net;
    }
  }
  return { announcement: row.id, payments, gross: grossTotal, net: netTotal };
}

export const DIVIDEND_JOB = 'dividends.pay';

/**
 * The parts an announcement's holders are paid in: holders whose user id is `part` modulo DIVIDEND_PARTS,
 * each part one runOnce transaction (`announcement:<id>:part:<k>/<n>`), the parts at once on their own
 * connections (PGlite runs them one after another), then the announcement marked paid by its own runOnce
 * (`announcement:<id>`). Each part is exactly once by its job_runs row; a part that failed or whose process
 * died rolls back whole and is paid by the next pass; the parts share no holder, so they never wait on each
 * other's locks. Changing the number while an announcement is half paid cannot pay a holder twice: the
 * payment rows' unique index refuses the second (ADR 0037).
 */
export const DIVIDEND_PARTS = 2;

/**
 * Pays every announcement whose payment date has come (Tokyo), each holder exactly once (runOnce per part of
 * the holders, then per announcement). The entitlements are read once per pass, before the parts: they are
 * the holdings at the end of the cum date (entitlements), which nothing done since changes.
 */
export async function runDividendJob(
  db: Db,
  at: Date,
  options: { batchSize?: number; parts?: number } = {},
): Promise<EventOutbox> {
  const today = tokyoParts(at).date;
  const parts = options.parts ?? DIVIDEND_PARTS;
  const due = await db
    .select()
    .from(dividendAnnouncements)
    .where(and(isNull(dividendAnnouncements.paidAt), lte(dividendAnnouncements.paymentDate, today)))
    .orderBy(asc(dividendAnnouncements.id));
  const outbox: EventOutbox = [];
  for (const row of due) {
    const key = `announcement:${row.id}`;
    if (await hasRun(db, DIVIDEND_JOB, key)) continue;
    const all = await entitlements(db, row.code, row.cumDate);
    const ended = await Promise.allSettled(
      Array.from({ length: parts }, async (_, part) => {
        const partKey = `${key}:part:${part + 1}/${parts}`;
        if (await hasRun(db, DIVIDEND_JOB, partKey)) return;
        const mine = all.filter((e) => e.userId % parts === part);
        const events: EventOutbox = [];
        const result = await runOnce(db, DIVIDEND_JOB, partKey, at, (tx) =>
          payHolders(tx, row, mine, at, events, options.batchSize),
        );
        if (result.ran) outbox.push(...events);
      }),
    );
    const failed = ended.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await runOnce(db, DIVIDEND_JOB, key, at, async (tx) => {
      await tx.update(dividendAnnouncements).set({ paidAt: at }).where(eq(dividendAnnouncements.id, row.id));
      return { announcement: row.id, parts };
    });
  }
  return outbox;
}

export const dividendsJob: ScheduledJob = {
  name: DIVIDEND_JOB,
  run: (app, deps) => runDividendJob(app.ctx.db, deps.clock.now()),
};

/** The dividend screen: upcoming dividends of the user's holdings and watchlist, and those received. */
export async function dividendsView(
  db: Executor,
  userId: number,
  locale: Locale,
  now: Date,
): Promise<TDividendsView> {
  const today = tokyoParts(now).date;
  const held = await db
    .select({ code: positions.code, quantity: sql<string>`sum(${positions.quantity})::text` })
    .from(positions)
    .where(
      and(
        eq(positions.userId, userId),
        eq(positions.status, 'holding'),
        eq(positions.marginType, 'cash'),
        eq(positions.direction, 'long'),
      ),
    )
    .groupBy(positions.code);
  const watched = await db
    .select({ code: watchlist.code })
    .from(watchlist)
    .where(eq(watchlist.userId, userId));
  const quantities = new Map(held.map((h) => [h.code, Number(h.quantity)]));
  const codes = [...new Set([...quantities.keys(), ...watched.map((w) => w.code)])];
  const rows =
    codes.length === 0
      ? []
      : await db
          .select()
          .from(dividendAnnouncements)
          .where(
            and(
              inArray(dividendAnnouncements.code, codes),
              isNull(dividendAnnouncements.paidAt),
              gte(dividendAnnouncements.paymentDate, today),
            ),
          )
          .orderBy(asc(dividendAnnouncements.cumDate));
  const upcoming: TUpcomingDividend[] = rows.map((r) => {
    const quantity = quantities.get(r.code) ?? 0;
    return {
      ...announcementView(r, locale),
      reason: quantity > 0 ? 'holding' : 'watchlist',
      quantity,
      days_to_cum: businessDaysUntil(today, r.cumDate),
      expected_gross: sen(quantity * r.perShare),
    };
  });
  const paid = await db
    .select({ p: dividendPayments, a: dividendAnnouncements })
    .from(dividendPayments)
    .innerJoin(dividendAnnouncements, eq(dividendAnnouncements.id, dividendPayments.announcementId))
    .where(eq(dividendPayments.userId, userId))
    .orderBy(desc(dividendPayments.id))
    .limit(200);
  return {
    upcoming,
    history: paid.map(({ p, a }) => ({
      id: p.id,
      announcement_id: a.id,
      code: a.code,
      name: nameOf(a.code, locale),
      kind: p.kind,
      tax_account: p.taxAccount,
      quantity: p.quantity,
      per_share: sen(a.perShare),
      gross: sen(p.gross),
      tax_national: sen(p.taxNational),
      tax_local: sen(p.taxLocal),
      net: sen(p.net),
      payment_date: a.paymentDate,
      paid_at: p.paidAt.toISOString(),
    })),
  };
}
