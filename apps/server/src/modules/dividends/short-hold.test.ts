import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sen, yen, type TOrder } from '@kabuto/contract';
import { bankAccounts } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { fileWithdrawal } from '../funds/withdrawals.js';
import { ledgerHeadMismatches, lockUser, userBalances } from '../ledger/ledger.js';
import { loadSettings } from '../settings/settings.js';
import { announceDividend, runDividendJob } from './dividends.js';
import { dividendAdjustmentsHeld } from './held.js';

/**
 * A short seller's dividend adjustment is held back from withdrawable cash from the ex date to the payment
 * (MARKET.md, ADR 0027), as a scenario with a fixed clock. Toyota (7203) pays ¥37.50 a share for the record
 * date Mon 2026-11-30: cum date Thu 26, ex date Fri 27, payment Tue 2026-12-15. A 制度信用 short of 200 shares
 * opened on the cum date owes 750,000 − floor(750,000 × 15.315%) = 635,138 sen (¥6,351.38).
 */
let t: TestApp;
let market: TestMarket;
const TOKYO = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+09:00`).toISOString();
const OWED = 635_138;

beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '1000000' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
  market.set('7203', 3100);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof registerAndLogin>>;

/** A fresh session (the clock moves past a session's life between steps). */
async function login(u: User): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { account: u.phone, password: u.password, agree: true },
  });
  return body<{ token: string }>(res).data.token;
}

async function shortSell(u: User) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/trade/placeOrder?lang=en',
    headers: { token: await login(u), 'idempotency-key': randomUUID() },
    payload: {
      code: '7203',
      direction: 'short',
      price_type: 'market',
      quantity: 200,
      leverage: 2,
      margin_type: 'standard',
    },
  });
  expect(body<TOrder>(res).code, res.body).toBe(1);
}

async function withdrawable(u: User): Promise<number> {
  const res = await t.app.inject({
    url: `/api/index/withdrawal?user_id=${u.userId}`,
    headers: { token: await login(u) },
  });
  return body<{ withdrawable: number }>(res).data.withdrawable;
}

/** Files a withdrawal through the rule itself (its bank account approved beforehand). */
async function withdraw(u: User, amount: number) {
  const [account] = await t.database.db
    .insert(bankAccounts)
    .values({
      userId: u.userId,
      holderName: 'テスト タロウ',
      accountNumber: '1234567',
      bankName: 'テスト銀行',
      branchName: '本店',
      branchNumber: '001',
      status: 'approved',
    })
    .returning();
  const settings = await loadSettings(t.database.db, t.app.ctx.config);
  return t.database.db.transaction(async (tx) => {
    await lockUser(tx, u.userId);
    const deps = { clock: t.clock, settings, isBusinessDay: t.app.ctx.isBusinessDay, locale: 'en' };
    return fileWithdrawal(tx, deps, u.userId, { amount: sen(amount), bank_account_id: account?.id ?? 0 }, []);
  });
}

describe('a short seller’s dividend adjustment held back from withdrawable cash', () => {
  let short: User;
  let lateShort: User;

  it('holds nothing back before the ex date', async () => {
    t.clock.set(TOKYO('2026-11-24', '10:00'));
    await announceDividend(
      t.database.db,
      null,
      { code: '7203', per_share: sen(3750), record_date: '2026-11-30', payment_date: '2026-12-15' },
      t.clock.now(),
    );
    t.clock.set(TOKYO('2026-11-26', '10:00'));
    short = await registerAndLogin(t);
    await shortSell(short);
    const { cash } = await userBalances(t.database.db, short.userId);
    expect(await dividendAdjustmentsHeld(t.database.db, short.userId, t.clock.now())).toBe(0);
    expect(await withdrawable(short)).toBe(cash);
  });

  it('holds back what the short will pay from the ex date: a withdrawal beyond the rest is refused', async () => {
    t.clock.set(TOKYO('2026-11-27', '10:00'));
    lateShort = await registerAndLogin(t);
    await shortSell(lateShort); // opened on the ex date: not entitled, owes nothing
    const { cash } = await userBalances(t.database.db, short.userId);
    expect(await dividendAdjustmentsHeld(t.database.db, short.userId, t.clock.now())).toBe(OWED);
    expect(await withdrawable(short)).toBe(cash - OWED);
    expect(await withdrawable(lateShort)).toBe((await userBalances(t.database.db, lateShort.userId)).cash);

    const free = cash - OWED;
    await expect(withdraw(short, free + yen(1))).rejects.toMatchObject({
      errorName: 'WITHDRAWAL_DIVIDEND_ADJUSTMENT_HELD',
    });
    const allowed = Math.floor(free / 100) * 100;
    const { row } = await withdraw(short, allowed);
    expect(row.amount).toBe(allowed);
    expect((await userBalances(t.database.db, short.userId)).cash).toBe(cash - allowed);
    expect(await withdrawable(short)).toBe(free - allowed);
  });

  it('releases the hold once the adjustment is paid, which the cash held back covers', async () => {
    const before = (await userBalances(t.database.db, short.userId)).cash;
    t.clock.set(TOKYO('2026-12-15', '09:00'));
    await runDividendJob(t.database.db, t.clock.now());
    const after = (await userBalances(t.database.db, short.userId)).cash;
    expect(after).toBe(before - OWED);
    expect(after).toBeGreaterThanOrEqual(0);
    expect(await dividendAdjustmentsHeld(t.database.db, short.userId, t.clock.now())).toBe(0);
    expect(await withdrawable(short)).toBe(after);
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
