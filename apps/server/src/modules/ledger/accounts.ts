import { and, eq, isNull } from 'drizzle-orm';
import { dialectOf } from '../../db/driver-internals.js';
import type { Executor } from '../../db/types.js';
import { ledgerAccounts, ledgerHeads } from '../../db/schema.js';

/**
 * The ledger's accounts (ADR 0002): their kinds, opening a user's, and finding their ids (remembered per
 * database for the life of the process).
 *
 * User accounts: `cash` (free to trade or withdraw), `reserved` (held by pending orders), `margin` (collateral
 * of open margin positions), `withdrawing` (withdrawals filed and not yet paid out). House accounts:
 * `demo_funding`, `market_settlement`, `fees`, `bank_clearing` (money on its way to or from users' banks),
 * `tax_withholding_national` and `tax_withholding_local` (tax withheld in 特定口座 until it is paid over),
 * `fund_custody` (what holders paid into the follow-up products, and what redemptions pay out) and
 * `dividend_clearing` (dividends and dividend adjustments on their way from issuers and margin lenders).
 */
export const USER_ACCOUNT_KINDS = ['cash', 'reserved', 'margin', 'withdrawing'] as const;
export type UserAccountKind = (typeof USER_ACCOUNT_KINDS)[number];
export const HOUSE_ACCOUNT_KINDS = [
  'demo_funding',
  'market_settlement',
  'fees',
  'bank_clearing',
  'tax_withholding_national',
  'tax_withholding_local',
  'fund_custody',
  'dividend_clearing',
  // issue 18 (ADR 0028): principal lent out (the receivable), interest earned, late charges earned
  'loan_book',
  'loan_interest',
  'loan_late_charges',
] as const;
export type HouseAccountKind = (typeof HOUSE_ACCOUNT_KINDS)[number];

export class LedgerError extends Error {}

/** Opens a new user's accounts and ledger head (no postings yet), in the transaction that creates the user. */
export async function openUserAccounts(db: Executor, userId: number): Promise<void> {
  await db
    .insert(ledgerAccounts)
    .values(USER_ACCOUNT_KINDS.map((kind) => ({ userId, kind })))
    .onConflictDoNothing();
  await db.insert(ledgerHeads).values({ userId }).onConflictDoNothing();
}

/**
 * What one drizzle database (a PostgreSQL pool or a PGlite instance) has taught this process, found from
 * the database object or any transaction on it: drizzle makes one PgDialect per database and hands that
 * same object to every transaction it opens. Nothing is remembered when it cannot be found that way.
 */
function memoryOf<T>(memory: WeakMap<object, T>, db: Executor, make: () => T): T | undefined {
  const dialect = dialectOf(db);
  if (!dialect) return undefined;
  let found = memory.get(dialect);
  if (!found) {
    found = make();
    memory.set(dialect, found);
  }
  return found;
}

/**
 * Ledger account ids, per database, for the life of the process. An account row is never updated or
 * deleted once created and ids are never reused, so an id read once stays right. A user's accounts are
 * opened in the transaction that creates the user: if it rolls back, the user's id is gone for good and
 * the remembered ids are never asked for. A house account opened by this process is not remembered (its
 * transaction could still roll back); the migrations open them all, so that only happens to a new kind.
 */
interface AccountIds {
  /** a user's account ids, keyed by userAccountKey (numbers, not strings: the daily jobs look up 100,000s) */
  user: Map<number, number>;
  house: Map<HouseAccountKind, number>;
  openedHere: Set<HouseAccountKind>;
}
const accountIdMemory = new WeakMap<object, AccountIds>();
/** About a hundred thousand users' accounts; past that the memory starts again (a few MiB at most). */
const MAX_REMEMBERED_USER_ACCOUNTS = 400_000;
const accountIdsOf = (db: Executor) =>
  memoryOf(accountIdMemory, db, (): AccountIds => ({
    user: new Map<number, number>(),
    house: new Map<HouseAccountKind, number>(),
    openedHere: new Set<HouseAccountKind>(),
  }));

/** The memory's key of a user's account of a kind (a kind's index, below 8, beside the user id). */
const userAccountKey = (userId: number, kindIndex: number) => userId * 8 + kindIndex;

/**
 * Remembers a user's account ids read elsewhere (`[kind, id]` pairs), such as with the user's ledger head.
 * When the memory is full it starts again, before (never while) remembering one user's accounts.
 */
export function rememberUserAccounts(
  db: Executor,
  userId: number,
  accounts: readonly [string, number][],
): void {
  const ids = accountIdsOf(db);
  if (!ids) return;
  if (ids.user.size + accounts.length > MAX_REMEMBERED_USER_ACCOUNTS) ids.user.clear();
  for (const [kind, id] of accounts) {
    const index = USER_ACCOUNT_KINDS.indexOf(kind as UserAccountKind);
    if (index >= 0) ids.user.set(userAccountKey(userId, index), id);
  }
}

/**
 * The remembered id of a user's account, without a round trip (undefined if not remembered): for the batch
 * writers, which look up each line's account without awaiting (posting.ts, postEntries).
 */
export function knownUserAccountId(db: Executor, userId: number, kind: UserAccountKind): number | undefined {
  return accountIdsOf(db)?.user.get(userAccountKey(userId, USER_ACCOUNT_KINDS.indexOf(kind)));
}

export async function userAccountId(db: Executor, userId: number, kind: UserAccountKind): Promise<number> {
  const known = knownUserAccountId(db, userId, kind);
  if (known !== undefined) return known;
  // All of the user's accounts at once: the next entry usually touches another of them.
  const rows = await db
    .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.userId, userId));
  rememberUserAccounts(
    db,
    userId,
    rows.map((r) => [r.kind, r.id]),
  );
  const row = rows.find((r) => r.kind === kind);
  if (!row) throw new LedgerError(`user ${userId} has no ${kind} account`);
  return row.id;
}

export async function houseAccountId(db: Executor, kind: HouseAccountKind): Promise<number> {
  const ids = accountIdsOf(db);
  const known = ids?.house.get(kind);
  if (known !== undefined) return known;
  const find = () =>
    db
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(and(isNull(ledgerAccounts.userId), eq(ledgerAccounts.kind, kind)));
  const [existing] = await find();
  if (existing) {
    if (ids && !ids.openedHere.has(kind)) ids.house.set(kind, existing.id);
    return existing.id;
  }
  ids?.openedHere.add(kind);
  await db.insert(ledgerAccounts).values({ userId: null, kind }).onConflictDoNothing();
  const [created] = await find();
  if (!created) throw new LedgerError(`house account ${kind} could not be opened`);
  return created.id;
}
