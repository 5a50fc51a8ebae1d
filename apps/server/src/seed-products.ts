import { count } from 'drizzle-orm';
import { INITIAL_NAV_SEN, sen, type TPublishProductBody } from '@kabuto/contract';
import type { Db } from './db/types.js';
import { dividendAnnouncements, productNavs, productVersions, products } from './db/schema.js';
import type { Clock } from './lib/clock.js';
import { addDays, tokyoParts } from './lib/tokyo-time.js';
import { nextBusinessDay, previousBusinessDay } from './market/calendar.js';
import type { MarketDataProvider } from './market/provider.js';
import { audit } from './modules/console/audit.js';
import { announceDividend } from './modules/dividends/dividends.js';
import { DEMO_DIVIDENDS } from './modules/dividends/data/demo-dividends.js';
import { dividendDates } from './modules/dividends/dates.js';
import { strikeDate } from './modules/products/nav-job.js';
import { closeOf, lastStrikeDate } from './modules/products/nav.js';

/**
 * The demo's follow-up products and dividends (issue 17, ADR 0027), seeded once on first start: three model
 * portfolios with NAV history struck by the job's own rule from the simulator's daily closes of the last
 * HISTORY_BUSINESS_DAYS business days, and the next dividends of the demo universe's holdings
 * (modules/dividends/data/demo-dividends.ts, its source noted there).
 */
const HISTORY_BUSINESS_DAYS = 20;

const DISCLOSURE =
  'This fund invests in listed Japanese stocks; its NAV moves with their prices and you may lose part of what you invest. Past NAV does not promise future results. The management fee accrues daily inside the NAV. Prices are simulated in this demo.';

const DEMO_PRODUCTS: Omit<TPublishProductBody, 'deadline'>[] = [
  {
    issuer: 'Kabuto Asset Management',
    name: 'Kabuto Japan Large-Cap Index (TOPIX-like)',
    strategy:
      'Ten of the largest TOPIX constituents, weighted roughly by market value and rebalanced to these weights at every close: a simple basket that follows the broad market.',
    risk_disclosure: DISCLOSURE,
    constituents: [
      { code: '7203', weight_bp: 1600 },
      { code: '6758', weight_bp: 1200 },
      { code: '8306', weight_bp: 1200 },
      { code: '6501', weight_bp: 1000 },
      { code: '6861', weight_bp: 900 },
      { code: '9984', weight_bp: 900 },
      { code: '8035', weight_bp: 900 },
      { code: '9432', weight_bp: 800 },
      { code: '4063', weight_bp: 800 },
      { code: '8058', weight_bp: 700 },
    ],
    fund_cap: sen(10_000_000_000),
    min_investment: sen(10_000),
    management_rate_ppm: 1_430,
  },
  {
    issuer: 'Kabuto Asset Management',
    name: 'Kabuto High Dividend Japan',
    strategy:
      'Ten large companies with high dividend yields (banks, telecoms, trading houses, steel, insurance), equal-weighted and rebalanced at every close.',
    risk_disclosure: DISCLOSURE,
    constituents: ['8306', '8316', '8411', '9433', '9432', '2914', '8058', '8001', '5401', '8766'].map(
      (code) => ({
        code,
        weight_bp: 1000,
      }),
    ),
    fund_cap: sen(5_000_000_000),
    min_investment: sen(10_000),
    management_rate_ppm: 3_300,
  },
  {
    issuer: 'Kabuto Asset Management',
    name: 'Kabuto Japan Growth',
    strategy:
      'Eight growth companies in semiconductors, electronics, internet and pharmaceuticals, equal-weighted and rebalanced at every close. More volatile than the broad market.',
    risk_disclosure: DISCLOSURE,
    constituents: ['6861', '8035', '6857', '4063', '6098', '9984', '6920', '4568'].map((code) => ({
      code,
      weight_bp: 1250,
    })),
    fund_cap: sen(5_000_000_000),
    min_investment: sen(10_000),
    management_rate_ppm: 9_900,
  },
];

interface DemoDividends {
  source: string;
  dividends: readonly { code: string; record: string; per_share_sen: number; payment_months_after: number }[];
}

/** The month `months` after a date's month, on the 20th (or the business day before). */
function paymentDate(recordDate: string, months: number): string {
  const [y, m] = recordDate.split('-').map(Number) as [number, number];
  const total = m - 1 + months;
  const date = `${y + Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}-20`;
  return nextBusinessDay(addDays(date, -1)) === date ? date : previousBusinessDay(date);
}

export async function seedDemoProducts(db: Db, clock: Clock, market: MarketDataProvider): Promise<void> {
  const [existing] = await db.select({ n: count() }).from(products);
  if ((existing?.n ?? 0) > 0) return;
  const now = clock.now();
  const last = lastStrikeDate(now);
  let base = last;
  for (let i = 0; i < HISTORY_BUSINESS_DAYS; i += 1) base = previousBusinessDay(base);
  const deadline = addDays(tokyoParts(now).date, 365);
  await db.transaction(async (tx) => {
    for (const product of DEMO_PRODUCTS) {
      const closes: Record<string, number> = {};
      for (const c of product.constituents) closes[c.code] = await closeOf(market, c.code, base);
      const [row] = await tx
        .insert(products)
        .values({
          issuer: product.issuer,
          name: product.name,
          strategy: product.strategy,
          riskDisclosure: product.risk_disclosure,
          fundCap: product.fund_cap,
          deadline,
          minInvestment: product.min_investment,
          createdAt: now,
        })
        .returning({ id: products.id });
      if (!row) throw new Error('demo product was not written');
      await tx.insert(productVersions).values({
        productId: row.id,
        version: 1,
        constituents: product.constituents,
        feePpm: product.management_rate_ppm,
        effectiveDate: base,
        createdAt: now,
      });
      await tx
        .insert(productNavs)
        .values({ productId: row.id, date: base, nav: INITIAL_NAV_SEN, closes, createdAt: now });
      await audit(tx, {
        operatorId: null,
        action: 'seed.demo_product',
        targetType: 'product',
        targetId: row.id,
        reason: 'Demo mode: a model portfolio with NAV history struck from the simulated closes',
        after: { ...product, deadline },
        at: now,
      });
    }
    for (let d = nextBusinessDay(base); d <= last; d = nextBusinessDay(d))
      await strikeDate(tx, market, d, now);
  });
  await seedDemoDividends(db, now);
}

/** The next announced dividend of each demo stock whose cum date is still ahead, from the data file. */
async function seedDemoDividends(db: Db, now: Date): Promise<void> {
  const [existing] = await db.select({ n: count() }).from(dividendAnnouncements);
  if ((existing?.n ?? 0) > 0) return;
  const data: DemoDividends = DEMO_DIVIDENDS;
  const today = tokyoParts(now).date;
  const year = Number(today.slice(0, 4));
  const next = new Map<string, { record: string; perShare: number; payment: string }>();
  for (const d of data.dividends) {
    for (const y of [year, year + 1]) {
      const record = `${y}-${d.record}`;
      if (dividendDates(record).cumDate < today) continue;
      const found = next.get(d.code);
      if (!found || record < found.record) {
        next.set(d.code, {
          record,
          perShare: d.per_share_sen,
          payment: paymentDate(record, d.payment_months_after),
        });
      }
      break;
    }
  }
  await db.transaction(async (tx) => {
    for (const [code, d] of next) {
      await announceDividend(
        tx,
        null,
        { code, per_share: sen(d.perShare), record_date: d.record, payment_date: d.payment },
        now,
        data.source,
      );
    }
  });
}
