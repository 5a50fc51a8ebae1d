import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, messages } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { SECRET_LOCK_MINUTES, SECRET_MAX_FAILURES } from './secrets.js';
import { smsStepUpToken } from '../../test/step-up.js';

/**
 * Issue 22: one failure counter per user and secret, shared by every route that checks it. Before it,
 * changeTxnPassword took 71 wrong old passwords a second from one token and withdrawals had no counter.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const as = (token: string) => ({ token });
async function post(url: string, token: string, payload: object) {
  return t.app.inject({ method: 'POST', url: `${url}?lang=en`, headers: as(token), payload });
}
const changeTxn = (token: string, old: string) =>
  post('/api/user/changeTxnPassword', token, {
    old_password: old,
    new_password: '654321',
    confirm_password: '654321',
  });
const withdraw = (token: string, txnPassword: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/withdrawals?lang=en',
    headers: { ...as(token), 'idempotency-key': `w-${Math.random()}` },
    payload: { amount: 100_000, bank_account_id: 999_999, txn_password: txnPassword },
  });

async function userWithTxnPassword() {
  const user = await registerAndLogin(t);
  const set = await post('/api/user/setTxnPassword', user.token, {
    login_password: user.password,
    new_password: '123456',
    confirm_password: '123456',
  });
  expect(body(set).code).toBe(1);
  return user;
}

describe('the transaction password’s failure counter', () => {
  it('counts wrong attempts across routes, locks the fifth for 30 minutes, and tells the user once', async () => {
    const user = await userWithTxnPassword();
    const first = await changeTxn(user.token, '000001');
    expect(body(first)).toMatchObject({ code: 1012, data: { attempts_left: 4 } });
    // the withdrawal route checks the same secret: its failures count on the same counter
    expect(body(await withdraw(user.token, '000002'))).toMatchObject({
      code: 1012,
      data: { attempts_left: 3 },
    });
    expect(body(await changeTxn(user.token, '000003'))).toMatchObject({ data: { attempts_left: 2 } });
    expect(body(await withdraw(user.token, '000004'))).toMatchObject({ data: { attempts_left: 1 } });
    const fifth = await changeTxn(user.token, '000005');
    expect(fifth.statusCode).toBe(423);
    expect(body(fifth)).toMatchObject({
      code: 1015,
      msg: expect.stringContaining(`${SECRET_LOCK_MINUTES} more minutes`) as string,
    });

    // while locked, even the right password is not checked
    expect(body(await changeTxn(user.token, '123456')).code).toBe(1015);
    expect(body(await withdraw(user.token, '123456')).code).toBe(1015);

    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, user.userId), eq(auditLog.action, 'security.secret_locked')));
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0]?.after ?? '{}')).toMatchObject({
      secret: 'txn',
      failures: SECRET_MAX_FAILURES,
    });
    const told = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, user.userId), eq(messages.kind, 'security.txn_password_locked')));
    expect(told).toHaveLength(1);
    const sms = t.sms.sent.filter(
      (m) => m.phone === user.phone && m.purpose === 'security.txn_password_locked',
    );
    expect(sms).toHaveLength(1);
    expect(sms[0]?.text).toMatch(/^Your transaction password was entered incorrectly 5 times/);

    // 30 minutes on, the secret works again and a success clears the count
    t.clock.advance(SECRET_LOCK_MINUTES * 60_000 + 1);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { account: user.phone, password: user.password, agree: true },
    });
    const againToken = body<{ token: string }>(again).data.token;
    const stepUp = await smsStepUpToken(
      t,
      { token: againToken, phone: user.phone, password: user.password },
      { action: 'change_txn_password' },
      '123456',
    );
    const changed = await post('/api/user/changeTxnPassword', againToken, {
      old_password: '123456',
      new_password: '654321',
      confirm_password: '654321',
      step_up_token: stepUp,
    });
    expect(body(changed).code).toBe(1);
  });

  it('concurrent guesses from one client cannot outrun the limit: at most five are checked', async () => {
    const user = await userWithTxnPassword();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => changeTxn(user.token, String(100_000 + i))),
    );
    const codes = answers.map((a) => body(a).code);
    expect(codes.filter((c) => c === 1012).length).toBeLessThanOrEqual(SECRET_MAX_FAILURES - 1);
    expect(codes.filter((c) => c === 1015).length).toBeGreaterThanOrEqual(20 - SECRET_MAX_FAILURES + 1);
    expect(codes.every((c) => c === 1012 || c === 1015)).toBe(true);
    expect(body(await changeTxn(user.token, '123456')).code).toBe(1015);
  });
});

describe('the login password outside sign-in', () => {
  it('changePassword and bank-account changes share one counter and lock it after five failures', async () => {
    const user = await registerAndLogin(t);
    const change = (old: string) =>
      post('/api/user/changePassword', user.token, {
        old_password: old,
        new_password: 'newpass12',
        confirm_password: 'newpass12',
      });
    for (let i = 1; i <= 3; i += 1) {
      expect(body(await change(`wrong${i}`))).toMatchObject({ code: 1009, data: { attempts_left: 5 - i } });
    }
    const bank = await post('/api/bank-accounts', user.token, {
      holder_name: 'ﾔﾏﾀﾞ ﾀﾛｳ',
      bank_code: '0009',
      branch_code: '221',
      account_type: 'ordinary',
      account_number: '7654321',
      login_password: 'wrong4',
    });
    expect(body(bank)).toMatchObject({ code: 1009, data: { attempts_left: 1 } });
    expect(body(await change('wrong5')).code).toBe(1015);
    expect(body(await change(user.password)).code).toBe(1015);
    // the transaction password is a different secret: its own counter is untouched
    const set = await post('/api/user/setTxnPassword', user.token, {
      login_password: user.password,
      new_password: '123456',
      confirm_password: '123456',
    });
    expect(body(set).code).toBe(1015);
  });

  it('a success clears the count, so five failures spread over good sessions never lock', async () => {
    const user = await registerAndLogin(t);
    const change = (old: string, next: string) =>
      post('/api/user/changePassword', user.token, {
        old_password: old,
        new_password: next,
        confirm_password: next,
      });
    let current = user.password;
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < SECRET_MAX_FAILURES - 1; i += 1)
        expect(body(await change('nope99', 'x')).code).not.toBe(1015);
      const next = `pass${round}xy`;
      // the right password, with the SMS step-up a user without a passkey takes (answered with it too)
      const stepUp = await smsStepUpToken(
        t,
        { token: user.token, phone: user.phone, password: current },
        { action: 'change_password' },
      );
      const changed = await post('/api/user/changePassword', user.token, {
        old_password: current,
        new_password: next,
        confirm_password: next,
        step_up_token: stepUp,
      });
      expect(body(changed).code).toBe(1);
      current = next;
    }
  });
});

describe('honest concurrent requests', () => {
  it('twenty simultaneous right answers all pass: the count never climbs past the limit on its own', async () => {
    const user = await userWithTxnPassword();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/api/user/changeTxnPassword', user.token, {
          old_password: '123456',
          new_password: '123456',
          confirm_password: '123456',
        }),
      ),
    );
    // each was checked (the same password again is refused after the check), none was locked out
    expect(answers.map((a) => body(a).code)).toEqual(Array.from({ length: 20 }, () => 1013));
  });
});
