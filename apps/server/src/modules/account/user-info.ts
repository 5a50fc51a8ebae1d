import { eq } from 'drizzle-orm';
import { addSen, maskPhone, sen, type TUserInfo } from '@kabuto/contract';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { balanceOf } from '../ledger/ledger.js';

/**
 * The account figures of the user tab, all derived from the database:
 * available balance = cash; used funds = cash reserved for orders and withdrawals plus margin in use;
 * total assets = all of the user's cash accounts (positions' market value joins when trading lands);
 * floating profit and loss = 0 until the user holds positions.
 * The credit score follows the published rule of docs/adr/0007-credit-score.md.
 */
export async function loadUserInfo(ctx: { db: Executor }, userId: number): Promise<TUserInfo> {
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
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new AppError('UNAUTHENTICATED');
  const balances = {
    cash: sen(BigInt(user.cash)),
    reserved: sen(BigInt(user.reserved)),
    margin: sen(BigInt(user.margin)),
  };
  const usedFunds = addSen(balances.reserved, balances.margin);
  return {
    user_id: user.id,
    phone: maskPhone(user.phone),
    invitation_code: user.invitationCode,
    real_name_status: user.realNameStatus,
    has_txn_password: user.txnPasswordHash !== null,
    credit_score: creditScore(),
    total_assets: addSen(balances.cash, usedFunds),
    available_balance: balances.cash,
    used_funds: usedFunds,
    floating_pl: sen(0),
    created_at: user.createdAt.toISOString(),
  };
}

/** 100, less 20 for each loan overdue now; loans arrive with a later feature, so it is 100 today. */
export function creditScore(overdueLoans = 0): number {
  return Math.max(0, 100 - 20 * overdueLoans);
}
