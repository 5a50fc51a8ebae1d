import { and, desc, eq } from 'drizzle-orm';
import {
  DEFAULT_OPENING_SETTINGS,
  NOT_SUITABLE,
  ZApplicationProfileView,
  ZOpeningSettings,
  suitabilityRuleText,
  suitability,
  translate,
  localeOf,
  type Suitability,
  type SuitabilityFeature,
  type TBrokerageAccountView,
  type TOpeningSettings,
  type TPlaceOrderRequest,
  type TaxAccount,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { brokerageAccounts, identityVerifications, settings } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';

/**
 * The brokerage account (証券総合口座, ADR 0022): opened when the account application passes review, in the
 * review's transaction; what it may do beyond cash trading follows from the application's profile by the
 * published suitability rules. Until it is open, orders are refused (ACCOUNT_NOT_OPEN).
 */
type IdentityRow = typeof identityVerifications.$inferSelect;
type AccountRow = typeof brokerageAccounts.$inferSelect;

/**
 * Opens the account of an approved application: 特定口座 as chosen (a verification of the older short form
 * had no choice: 特定口座 with withholding, as the migration gave verified users), NISA when asked for, and
 * new cash orders going to the 特定口座 when there is one, else the 一般口座. Answers the row written (none
 * when the user already had an account).
 */
export async function openBrokerageAccount(
  tx: Tx,
  row: IdentityRow,
  now: Date,
): Promise<AccountRow | undefined> {
  const specificAccount = row.specificAccount ?? 'withholding';
  const [account] = await tx
    .insert(brokerageAccounts)
    .values({
      userId: row.userId,
      identityId: row.id,
      specificAccount,
      nisaOpenedAt: row.openNisa === true ? now : null,
      defaultTaxAccount: specificAccount === 'none' ? 'general' : 'specific',
      openedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  return account;
}

/** The `opening` setting as published, or its defaults (they do not depend on the configuration). */
export async function publishedOpeningSettings(db: Executor): Promise<TOpeningSettings> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'opening'));
  if (!row) return DEFAULT_OPENING_SETTINGS;
  const parsed = ZOpeningSettings.safeParse(JSON.parse(row.value));
  return parsed.success ? parsed.data : DEFAULT_OPENING_SETTINGS;
}

async function accountOf(db: Executor, userId: number): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(brokerageAccounts).where(eq(brokerageAccounts.userId, userId));
  return row;
}

/** The application that decides suitability: the one that opened the account, else the newest passed one. */
async function decidingApplication(
  db: Executor,
  userId: number,
  account: AccountRow,
): Promise<IdentityRow | undefined> {
  const where =
    account.identityId === null
      ? and(eq(identityVerifications.userId, userId), eq(identityVerifications.status, 'passed'))
      : eq(identityVerifications.id, account.identityId);
  const [row] = await db
    .select()
    .from(identityVerifications)
    .where(where)
    .orderBy(desc(identityVerifications.id))
    .limit(1);
  return row;
}

/**
 * What the application's profile allows. An account opened before the suitability questions existed has
 * no profile to judge: nothing beyond cash is offered, the unmet rule being `profile`.
 */
export function suitabilityOf(
  row: IdentityRow | undefined,
  rules: TOpeningSettings,
  today: string,
): Suitability {
  const profile = ZApplicationProfileView.safeParse(row?.profile);
  if (!profile.success || !row?.birthDate) {
    const missing = { allowed: false, unmet: ['profile'] };
    return { margin: missing, short: { ...missing }, loans: { ...missing } };
  }
  return suitability(profile.data, row.birthDate, rules, today);
}

/** GET /api/account/brokerage */
export async function brokerageView(
  db: Executor,
  userId: number,
  today: string,
): Promise<TBrokerageAccountView> {
  const account = await accountOf(db, userId);
  const rules = await publishedOpeningSettings(db);
  if (!account) {
    const [latest] = await db
      .select({ status: identityVerifications.status })
      .from(identityVerifications)
      .where(eq(identityVerifications.userId, userId))
      .orderBy(desc(identityVerifications.id))
      .limit(1);
    return {
      status: latest === undefined ? 'none' : latest.status === 'rejected' ? 'rejected' : 'pending',
      opened_at: null,
      specific_account: null,
      nisa: false,
      default_account: null,
      accounts: [],
      suitability: NOT_SUITABLE,
      rules,
    };
  }
  const accounts: TaxAccount[] = [];
  if (account.specificAccount !== 'none') accounts.push('specific');
  accounts.push('general');
  if (account.nisaOpenedAt !== null) accounts.push('nisa');
  return {
    status: 'open',
    opened_at: account.openedAt.toISOString(),
    specific_account: account.specificAccount,
    nisa: account.nisaOpenedAt !== null,
    default_account: account.defaultTaxAccount,
    accounts,
    suitability: suitabilityOf(await decidingApplication(db, userId, account), rules, today),
    rules,
  };
}

/** Users known to hold an open account, per database: an account once open stays open. */
const openAccounts = new WeakMap<object, Set<number>>();

/** A margin order: named 制度信用 or 一般信用, or (the wire before issue 23) leveraged or short. */
function isMarginOrder(order: Pick<TPlaceOrderRequest, 'margin_type' | 'leverage' | 'direction'>): boolean {
  return order.margin_type === undefined
    ? order.leverage > 1 || order.direction === 'short'
    : order.margin_type !== 'cash';
}

/**
 * The order path's check (issue 23): the account must be open (ACCOUNT_NOT_OPEN), and a margin or short
 * order needs suitability for it (SUITABILITY_NOT_MET, naming the rules not met in the reader's language).
 * A cash order costs one cached lookup.
 */
export async function requireTradingAccount(
  db: Executor,
  userId: number,
  order: Pick<TPlaceOrderRequest, 'margin_type' | 'leverage' | 'direction'>,
  locale: string,
  today: string,
): Promise<void> {
  const margin = isMarginOrder(order);
  let known = openAccounts.get(db);
  if (!margin && known?.has(userId)) return;
  const account = await accountOf(db, userId);
  if (!account) throw new AppError('ACCOUNT_NOT_OPEN');
  if (!known) {
    known = new Set();
    openAccounts.set(db, known);
  }
  known.add(userId);
  if (!margin) return;
  const rules = await publishedOpeningSettings(db);
  const verdicts = suitabilityOf(await decidingApplication(db, userId, account), rules, today);
  const feature: SuitabilityFeature = order.direction === 'short' ? 'short' : 'margin';
  const verdict = verdicts[feature];
  if (verdict.allowed) return;
  throw new AppError('SUITABILITY_NOT_MET', {
    feature: translate(localeOf(locale), `opening.features.${feature}`),
    rules: verdict.unmet
      .map((rule) =>
        suitabilityRuleText(rule, feature, rules, (key, params) => translate(localeOf(locale), key, params)),
      )
      .join(', '),
  });
}
