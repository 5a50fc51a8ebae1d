import { count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  normalizeJapaneseMobile,
  type TConsoleUser,
  type TConsoleUserRow,
  type TIdentityReview,
} from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { identityVerifications, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import {
  bankAccountHistory,
  bankAccountLogView,
  bankAccountView,
  listBankAccounts,
} from '../banking/banking.js';
import { depositView, listDeposits } from '../funds/deposits.js';
import { latestIdentityReview } from '../funds/views.js';
import { listWithdrawals, withdrawalView } from '../funds/withdrawals.js';
import { userBalances } from '../ledger/ledger.js';
import { listMessages } from '../messages/messages.js';

/** The console's read-only user lookup: search by phone, user id or name, and one user's whole picture. */

/** How many of each list the user's page shows (the newest). */
const DETAIL_LIMIT = 100;
const MAX_ID = 2_147_483_647;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The newest identity submission's column of a user, as a correlated subquery. */
const latestIdentity = (column: 'full_name' | 'status') =>
  sql.raw(
    `(select iv.${column} from identity_verifications iv where iv.user_id = "users"."id" order by iv.id desc limit 1)`,
  );

/**
 * A query matches a user id (all digits), a phone number or a part of it (digits, spaces and hyphens, or
 * +81), or a part of any name the user submitted for verification (spaces ignored).
 */
function searchCondition(q: string | undefined): SQL | undefined {
  const text = q?.trim() ?? '';
  if (text === '') return undefined;
  const conditions: (SQL | undefined)[] = [];
  const digits = text.replace(/[\s\-‐－()]/g, '');
  if (/^\d+$/.test(digits)) {
    const id = Number(digits);
    if (digits.length <= 10 && id <= MAX_ID) conditions.push(eq(users.id, id));
    conditions.push(sql`${users.phone} like ${`%${digits}%`}`);
  }
  const phone = normalizeJapaneseMobile(text);
  if (phone !== null) conditions.push(eq(users.phone, phone));
  const name = text.replace(/[\s\u3000]/g, '');
  if (name !== '') {
    conditions.push(
      sql`exists (select 1 from ${identityVerifications} iv where iv.user_id = ${users.id} and regexp_replace(iv.full_name, '[[:space:]\u3000]', '', 'g') ilike ${`%${escapeLike(name)}%`})`,
    );
  }
  return or(...conditions);
}

export async function searchUsers(
  db: Executor,
  query: { q?: string | undefined; limit: number; offset: number },
): Promise<{ total: number; items: TConsoleUserRow[] }> {
  const where = searchCondition(query.q);
  const [rows, [n]] = await Promise.all([
    db
      .select({
        id: users.id,
        phone: users.phone,
        createdAt: users.createdAt,
        fullName: sql<string | null>`${latestIdentity('full_name')}`,
        status: sql<TIdentityReview['status'] | null>`${latestIdentity('status')}`,
      })
      .from(users)
      .where(where)
      .orderBy(desc(users.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return {
    total: n?.n ?? 0,
    items: rows.map((r) => ({
      user_id: r.id,
      phone: r.phone,
      real_name_status: r.status ?? 'unverified',
      full_name: r.fullName,
      created_at: new Date(r.createdAt).toISOString(),
    })),
  };
}

/** USER_NOT_FOUND unless the user exists. */
export async function requireUserRow(db: Executor, userId: number): Promise<typeof users.$inferSelect> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError('USER_NOT_FOUND');
  return row;
}

/** One user as the console shows it: profile, verification, balances, bank accounts, funds, messages. */
export async function consoleUser(db: Executor, userId: number): Promise<TConsoleUser> {
  const user = await requireUserRow(db, userId);
  const page = { limit: DETAIL_LIMIT, offset: 0 };
  const [identity, balances, accounts, log, deposits, withdrawals, messages] = await Promise.all([
    latestIdentityReview(db, userId),
    userBalances(db, userId),
    listBankAccounts(db, userId),
    bankAccountHistory(db, userId, DETAIL_LIMIT),
    listDeposits(db, userId, page),
    listWithdrawals(db, userId, page),
    listMessages(db, userId, page),
  ]);
  return {
    user_id: user.id,
    phone: user.phone,
    real_name_status: identity?.status ?? 'unverified',
    full_name: identity?.full_name ?? null,
    created_at: user.createdAt.toISOString(),
    invitation_code: user.invitationCode,
    invited_by_code: user.invitedByCode,
    locked_until: user.lockedUntil?.toISOString() ?? null,
    balances,
    identity,
    bank_accounts: accounts.map(bankAccountView),
    bank_account_log: log.map(bankAccountLogView),
    deposits: deposits.items.map(depositView),
    withdrawals: withdrawals.items.map(({ row, account }) => withdrawalView(row, account)),
    messages: messages.items,
  };
}
