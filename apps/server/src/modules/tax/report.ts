import { and, asc, eq } from 'drizzle-orm';
import {
  lookup,
  sen,
  senToDecimalString,
  translate,
  type Locale,
  type Sen,
  type TTaxReport,
  type TTaxSummary,
  type TaxAccount,
} from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { brokerageAccounts, realizations } from '../../db/schema.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { getInstrument } from '../../market/instruments.js';
import { readsJapanese } from '../market/views.js';
import { heldAccounts } from './accounts.js';
import { withheldInYear } from './realize.js';

/**
 * The annual trade report (年間取引報告書) per account and year, as JSON, as CSV, and the year's summary per
 * account (ADR 0021). Only the caller's own realizations; withholding exists only in 特定口座.
 */

function nameOf(code: string, locale: Locale): string {
  const instrument = getInstrument(code);
  if (!instrument) return code;
  return readsJapanese(locale) ? instrument.name_ja : instrument.name_en;
}

export async function taxReport(
  db: Executor,
  userId: number,
  year: number,
  account: TaxAccount,
  locale: Locale,
): Promise<TTaxReport> {
  const rows = await db
    .select()
    .from(realizations)
    .where(
      and(eq(realizations.userId, userId), eq(realizations.year, year), eq(realizations.taxAccount, account)),
    )
    .orderBy(asc(realizations.realizedAt), asc(realizations.id));
  const lines = rows.map((r) => ({
    code: r.code,
    name: nameOf(r.code, locale),
    date: tokyoParts(r.realizedAt).date,
    margin_type: r.marginType,
    quantity: r.quantity,
    proceeds: sen(r.proceeds),
    cost: sen(r.cost),
    gain: sen(r.gain),
  }));
  const sum = (pick: (l: (typeof lines)[number]) => Sen) => sen(lines.reduce((s, l) => s + pick(l), 0));
  const withheld =
    account === 'specific' ? await withheldInYear(db, userId, year) : { national: sen(0), local: sen(0) };
  return {
    year,
    account,
    lines,
    totals: { proceeds: sum((l) => l.proceeds), cost: sum((l) => l.cost), gain: sum((l) => l.gain) },
    withheld,
  };
}

const quote = (field: string) => (/[",\n\r]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field);

/**
 * The report as CSV, headers in the reader's language, amounts in yen with two decimals (as the statement),
 * with a byte-order mark so that Excel in Japan reads the UTF-8 text.
 */
export function taxReportCsv(report: TTaxReport, locale: Locale): { filename: string; csv: string } {
  const h = (key: string) => translate(locale, `tax.csv.${key}`);
  const yenText = (a: Sen) => senToDecimalString(a);
  const rows: string[][] = [
    ['date', 'code', 'name', 'type', 'quantity', 'proceeds', 'cost', 'gain'].map(h),
    ...report.lines.map((l) => [
      l.date,
      l.code,
      l.name,
      lookup(locale, `tax.lineTypes.${l.margin_type}`) ?? l.margin_type,
      String(l.quantity),
      yenText(l.proceeds),
      yenText(l.cost),
      yenText(l.gain),
    ]),
    [
      h('total'),
      '',
      '',
      '',
      '',
      yenText(report.totals.proceeds),
      yenText(report.totals.cost),
      yenText(report.totals.gain),
    ],
    [h('withheldNational'), '', '', '', '', '', '', yenText(report.withheld.national)],
    [h('withheldLocal'), '', '', '', '', '', '', yenText(report.withheld.local)],
  ];
  const csv = `\uFEFF${rows.map((r) => r.map(quote).join(',')).join('\r\n')}\r\n`;
  return { filename: `kabuto-annual-trade-report-${report.year}-${report.account}.csv`, csv };
}

/** The year per account the customer holds (and any other account with realizations that year). */
export async function taxSummary(db: Executor, userId: number, year: number): Promise<TTaxSummary> {
  const [choice] = await db.select().from(brokerageAccounts).where(eq(brokerageAccounts.userId, userId));
  const held = heldAccounts(
    choice
      ? {
          specificAccount: choice.specificAccount,
          nisa: choice.nisaOpenedAt !== null,
          defaultAccount: choice.defaultTaxAccount,
        }
      : null,
  );
  const gains = await db
    .select({ account: realizations.taxAccount, gain: realizations.gain })
    .from(realizations)
    .where(and(eq(realizations.userId, userId), eq(realizations.year, year)));
  const accounts = (['specific', 'general', 'nisa'] as const).filter(
    (a) => held.includes(a) || gains.some((g) => g.account === a),
  );
  const withheld = await withheldInYear(db, userId, year);
  return {
    year,
    accounts: accounts.map((account) => ({
      account,
      withholding: account === 'specific' && choice?.specificAccount === 'withholding',
      realized_gain: sen(gains.filter((g) => g.account === account).reduce((s, g) => s + g.gain, 0)),
      withheld_national: account === 'specific' ? withheld.national : sen(0),
      withheld_local: account === 'specific' ? withheld.local : sen(0),
    })),
  };
}
