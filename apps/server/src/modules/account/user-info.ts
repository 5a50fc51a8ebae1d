import { addSen, isMarginPosition, maskPhone, sen, type TUserInfo } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { run, statement } from '../../db/statement.js';
import type { MarketDataProvider } from '../../market/provider.js';
import { AppError } from '../../lib/app-error.js';

/**
 * The user's row and the balances of their ledger accounts (from the ledger head, one row per user), in one
 * round trip. getUserInfo runs on every visit of the user tab and after each login: kept as SQL text and
 * prepared once per connection on PostgreSQL (src/db/statement.ts), since building it with drizzle's query
 * builder cost more of the server's CPU than the rest of the request (ADR 0046).
 */
const userStatement = statement<
  { userId: number },
  {
    id: number;
    phone: string;
    invitationCode: string;
    realNameStatus: TUserInfo['real_name_status'];
    hasTxnPassword: boolean;
    createdAt: Date;
    cash: string | null;
    reserved: string | null;
    margin: string | null;
    withdrawing: string | null;
  }
>(
  'user_info',
  (p) => `select u.id, u.phone, u.invitation_code as "invitationCode", u.real_name_status as "realNameStatus",
      u.txn_password_hash is not null as "hasTxnPassword", u.created_at as "createdAt",
      h.cash::text as cash, h.reserved::text as reserved, h.margin::text as margin,
      h.withdrawing::text as withdrawing
    from users u left join ledger_heads h on h.user_id = u.id
    where u.id = ${p('userId')}::int limit 1`,
);

/** The columns of the user's held positions that the figures need. */
const heldStatement = statement<
  { userId: number },
  {
    code: string;
    direction: 'long' | 'short';
    leverage: number;
    marginType: Parameters<typeof isMarginPosition>[2];
    quantity: number;
    avgPrice: string;
  }
>(
  'user_info_held',
  (
    p,
  ) => `select code, direction, leverage, margin_type as "marginType", quantity, avg_price::text as "avgPrice"
    from positions where user_id = ${p('userId')}::int and status = 'holding'`,
);

/**
 * The account figures of the user tab, derived from the ledger and the positions at market prices:
 * available balance = cash; used funds = cash held for orders, withdrawals not yet paid out, and margin collateral;
 * floating profit and loss = the sum over held positions of (last − average price) × shares (reversed for
 * shorts); total assets = cash + used funds + the market value of cash positions + the floating
 * profit and loss of margin positions (what the account would hold if everything were closed at the last
 * price, before fees). The credit score follows the published rule of docs/adr/0007-credit-score.md.
 */
export async function loadUserInfo(
  ctx: { db: Executor; market: MarketDataProvider },
  userId: number,
): Promise<TUserInfo> {
  const [user] = await run(ctx.db, userStatement, { userId });
  if (!user) throw new AppError('UNAUTHENTICATED');
  // a user has a ledger head from registration on (as before, a missing one is an error, not a zero)
  const balance = (value: string | null) => sen(BigInt(value as string));
  const balances = {
    cash: balance(user.cash),
    reserved: balance(user.reserved),
    margin: balance(user.margin),
    withdrawing: balance(user.withdrawing),
  };
  const held = (await run(ctx.db, heldStatement, { userId })).map((p) => ({
    ...p,
    avgPrice: Number(p.avgPrice),
  }));
  let floating = 0;
  let positionsValue = 0;
  for (const p of held) {
    const last = ctx.market.quote(p.code)?.last ?? p.avgPrice;
    const pl = (p.direction === 'long' ? last - p.avgPrice : p.avgPrice - last) * p.quantity;
    floating += pl;
    positionsValue += isMarginPosition(p.direction, p.leverage, p.marginType) ? pl : last * p.quantity;
  }
  const usedFunds = addSen(balances.reserved, balances.margin, balances.withdrawing);
  return {
    user_id: user.id,
    phone: maskPhone(user.phone),
    invitation_code: user.invitationCode,
    real_name_status: user.realNameStatus,
    has_txn_password: user.hasTxnPassword,
    credit_score: creditScore(),
    total_assets: addSen(balances.cash, usedFunds, sen(positionsValue)),
    available_balance: balances.cash,
    used_funds: usedFunds,
    floating_pl: sen(floating),
    created_at: user.createdAt.toISOString(),
  };
}

/** 100, less 20 for each loan overdue now; loans arrive with a later feature, so it is 100 today. */
export function creditScore(overdueLoans = 0): number {
  return Math.max(0, 100 - 20 * overdueLoans);
}
