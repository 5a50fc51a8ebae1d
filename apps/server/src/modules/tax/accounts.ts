import {
  FALLBACK_LOCALE,
  LOCALES,
  sen,
  translate,
  type Locale,
  type Sen,
  type TaxAccount,
} from '@kabuto/contract';
import { run, statement } from '../../db/statement.js';
import type { Executor } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';

/**
 * Which account an order goes to (ADR 0021): the order's own choice, else the customer's default from the
 * brokerage account; refused when the customer does not hold it. And the customer's cash holdings of the
 * order's stock, one per account at a moving-average cost, read in the same statement under the user's lock.
 */

/** A cash holding: one per (user, code, account). */
export interface CashHolding {
  id: number;
  account: TaxAccount;
  quantity: number;
  avgPrice: Sen;
  bookValue: Sen;
}

/** The brokerage account's tax choices (null: the customer has no brokerage account row yet). */
export interface BrokerageTaxChoice {
  specificAccount: 'withholding' | 'no_withholding' | 'none';
  nisa: boolean;
  defaultAccount: TaxAccount;
}

interface Row {
  specific_account: BrokerageTaxChoice['specificAccount'] | null;
  nisa_opened_at: unknown;
  default_tax_account: TaxAccount | null;
  id: number | null;
  tax_account: TaxAccount | null;
  quantity: number | null;
  avg_price: string | null;
  book_value: string | null;
}

const accountAndHoldings = statement<{ userId: number; code: string }, Row>(
  'tax_account_and_holdings',
  (p) => `select b.specific_account, b.nisa_opened_at, b.default_tax_account,
      h.id, h.tax_account, h.quantity, h.avg_price::text as avg_price, h.book_value::text as book_value
    from (select 1) as one
    left join brokerage_accounts b on b.user_id = ${p('userId')}::int
    left join positions h on h.user_id = ${p('userId')}::int and h.status = 'holding'
      and h.code = ${p('code')}::text and h.margin_type = 'cash' and h.direction = 'long' and h.leverage = 1
    order by h.id`,
);

/** The customer's tax choices and cash holdings of `code` (the oldest first), in one statement. */
export async function readAccountAndHoldings(
  db: Executor,
  userId: number,
  code: string,
): Promise<{ choice: BrokerageTaxChoice | null; holdings: CashHolding[] }> {
  const rows = await run(db, accountAndHoldings, { userId, code });
  const first = rows[0];
  const choice =
    first?.specific_account && first.default_tax_account
      ? {
          specificAccount: first.specific_account,
          nisa: first.nisa_opened_at !== null,
          defaultAccount: first.default_tax_account,
        }
      : null;
  const holdings = rows.flatMap((r) =>
    r.id === null || r.tax_account === null
      ? []
      : [
          {
            id: r.id,
            account: r.tax_account,
            quantity: Number(r.quantity),
            avgPrice: sen(BigInt(r.avg_price ?? '0')),
            bookValue: sen(BigInt(r.book_value ?? '0')),
          },
        ],
  );
  return { choice, holdings };
}

/**
 * The accounts a customer holds: 一般口座 always, 特定口座 unless declined, NISA once opened. A customer
 * without a brokerage account row (before account opening existed) holds 特定口座 and 一般口座.
 */
export function heldAccounts(choice: BrokerageTaxChoice | null): TaxAccount[] {
  if (!choice) return ['specific', 'general'];
  return [
    ...(choice.specificAccount === 'none' ? [] : (['specific'] as const)),
    'general',
    ...(choice.nisa ? (['nisa'] as const) : []),
  ];
}

/**
 * The account an order goes to: the one it names, else the default (a margin order: 特定口座 when held,
 * else 一般口座, since NISA holds no margin). Refuses an account the customer does not hold.
 */
export function resolveTaxAccount(
  choice: BrokerageTaxChoice | null,
  requested: TaxAccount | undefined,
  margin: boolean,
  locale: string,
): TaxAccount {
  const held = heldAccounts(choice);
  const fallback: TaxAccount = margin
    ? held.includes('specific')
      ? 'specific'
      : 'general'
    : (choice?.defaultAccount ?? 'specific');
  const account = requested ?? fallback;
  if (margin && account === 'nisa') {
    const message = translate(asLocale(locale), 'validation.nisaCashOnly');
    throw new AppError('VALIDATION', {}, { issues: [{ field: 'account', rule: 'nisaCashOnly', message }] });
  }
  if (!held.includes(account)) {
    throw new AppError(
      'TAX_ACCOUNT_NOT_HELD',
      { account: translate(asLocale(locale), `tax.accounts.${account}`) },
      { account, held },
    );
  }
  return account;
}

const isLocale = (value: string): value is Locale => (LOCALES as readonly string[]).includes(value);
const asLocale = (value: string): Locale => (isLocale(value) ? value : FALLBACK_LOCALE);

/** 制度信用's repayment deadline: `months` after the opening, the day clamped to the month's last. */
export function repayDeadline(openedAt: Date, months: number): Date {
  const d = new Date(openedAt.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * The volume-weighted average of a holding after a buy of `quantity` at `price`, to the sen (half up),
 * exact in BigInt.
 */
export function movingAverage(held: CashHolding, price: Sen, quantity: number): Sen {
  const total = BigInt(held.avgPrice) * BigInt(held.quantity) + BigInt(price) * BigInt(quantity);
  const shares = BigInt(held.quantity + quantity);
  return sen((2n * total + shares) / (2n * shares));
}
