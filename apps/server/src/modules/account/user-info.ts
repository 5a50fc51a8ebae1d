import { and, eq } from 'drizzle-orm';
import { addSen, isMarginPosition, maskPhone, sen, type TUserInfo } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { positions, users } from '../../db/schema.js';
import type { MarketDataProvider } from '../../market/provider.js';
import { AppError } from '../../lib/app-error.js';
import { balanceOf } from '../ledger/ledger.js';

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
  // One round trip: the user's row and the sums of their ledger accounts.
  const [user] = await ctx.db
    .select({
      id: users.id,
      phone: users.phone,
      invitationCode: users.invitationCode,
      realNameStatus: users.realNameStatus,
      txnPasswordHash: users.txnPasswordHash,
      createdAt: users.createdAt,
      cash: balanceOf(userId, 'cash'),
      reserved: balanceOf(userId, 'reserved'),
      margin: balanceOf(userId, 'margin'),
      withdrawing: balanceOf(userId, 'withdrawing'),
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new AppError('UNAUTHENTICATED');
  const balances = {
    cash: sen(BigInt(user.cash)),
    reserved: sen(BigInt(user.reserved)),
    margin: sen(BigInt(user.margin)),
    withdrawing: sen(BigInt(user.withdrawing)),
  };
  const held = await ctx.db
    .select()
    .from(positions)
    .where(and(eq(positions.userId, userId), eq(positions.status, 'holding')));
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
    has_txn_password: user.txnPasswordHash !== null,
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
