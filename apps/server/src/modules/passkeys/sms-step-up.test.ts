import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yen, type TStepUpRequest } from '@kabuto/contract';
import { bankAccounts } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { SoftAuthenticator } from '../../test/soft-authenticator.js';
import { postStepped, stepUpBySms } from '../../test/step-up.js';
import { fundDemoCash } from '../ledger/ledger.js';

/**
 * Step-up for users without a passkey (issue 22, ADR 0031): an SMS code naming the action and its amount or
 * account, answered once with the transaction password (or the login password when none is set), giving the
 * same step-up token a passkey gives: bound to the action, single use, valid for minutes.
 */
const ORIGIN = 'https://kabuto.example';
const RP_ID = 'kabuto.example';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN });
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const post = (url: string, headers: Headers, payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url: `${url}?lang=en`, headers, payload: payload as object });
let keyCounter = 0;
const idem = () => ({ 'idempotency-key': `sms-step-up-test-${(keyCounter += 1)}` });
const TXN = '123456';
/** each test's SMS is asked for a minute after the last (the resend interval), and the clock is put back */
const later = async <T>(ms: number, work: () => Promise<T>): Promise<T> => {
  t.clock.advance(ms);
  try {
    return await work();
  } finally {
    t.clock.advance(-ms);
  }
};

/** A user without a passkey, with a transaction password, an approved bank account and ¥100,000 of cash. */
async function readyToWithdraw() {
  const u = await registerAndLogin(t);
  const set = await post(
    '/api/user/setTxnPassword',
    { token: u.token },
    { login_password: u.password, new_password: TXN, confirm_password: TXN },
  );
  expect(set.statusCode, set.body).toBe(200);
  const added = await postStepped(
    t,
    u,
    '/api/bank-accounts',
    {
      holder_name: 'ヤマダ タロウ',
      account_number: '1234567',
      bank_code: '0001',
      branch_code: '100',
      login_password: u.password,
    },
    { txnPassword: TXN },
  );
  expect(added.statusCode, added.body).toBe(200);
  const accountId = body<{ id: number }>(added).data.id;
  await t.database.db.update(bankAccounts).set({ status: 'approved' }).where(eq(bankAccounts.id, accountId));
  await fundDemoCash(t.database.db, u.userId, yen(100_000), t.clock.now());
  return { ...u, accountId };
}

const withdraw = (token: string, accountId: number, amount: number, stepUpToken?: string) =>
  post(
    '/api/withdrawals',
    { token, ...idem() },
    { amount, bank_account_id: accountId, txn_password: TXN, step_up_token: stepUpToken },
  );

async function askCode(token: string, phone: string, action: TStepUpRequest) {
  const res = await post('/api/step-up/sms', { token }, action);
  expect(res.statusCode, res.body).toBe(200);
  const data = body<{ challenge_id: string; secret: string; expires_at: string }>(res).data;
  return {
    ...data,
    code: t.sms.lastCodeFor(phone),
    text: t.sms.sent.findLast((m) => m.phone === phone)?.text,
  };
}

const verify = (token: string, payload: Record<string, unknown>) =>
  post('/api/step-up/verify', { token }, payload);

describe('unauthorized access', () => {
  it.each(['/api/step-up/sms', '/api/step-up/verify'])('POST %s needs a session', async (url) => {
    const res = await t.app.inject({ method: 'POST', url, payload: { action: 'change_password' } });
    expect(res.statusCode).toBe(401);
    expect(body(res).code).toBe(401);
  });

  it('another user’s code cannot be answered, nor its token spent', async () => {
    const owner = await readyToWithdraw();
    const other = await registerAndLogin(t);
    const action = { action: 'withdrawal', amount: yen(1_000), bank_account_id: owner.accountId } as const;
    // the other user cannot even name the owner's bank account in a step-up
    expect(body(await post('/api/step-up/sms', { token: other.token }, action)).code).toBe(1322);
    const sent = await askCode(owner.token, owner.phone, action);
    const answer = { challenge_id: sent.challenge_id, code: sent.code, password: other.password };
    expect(body(await verify(other.token, answer)).code).toBe(1802);
    // the owner's own step-up still works: the other user's try did not spend it
    const granted = await verify(owner.token, {
      challenge_id: sent.challenge_id,
      code: sent.code,
      txn_password: TXN,
    });
    const token = body<{ step_up_token: string }>(granted).data.step_up_token;
    const otherAccount = await post(
      '/api/bank-accounts',
      { token: other.token },
      {
        holder_name: 'ヤマダ タロウ',
        account_number: '7654321',
        bank_code: '0001',
        branch_code: '100',
        login_password: other.password,
        step_up_token: token,
      },
    );
    expect(body(otherAccount).code).toBe(1736);
  });
});

describe('a withdrawal stepped up by SMS', () => {
  it('is required: without a step-up token a user without a passkey is refused (1805), and nothing is filed', async () => {
    const u = await readyToWithdraw();
    const refused = await withdraw(u.token, u.accountId, yen(10_000));
    expect(refused.statusCode).toBe(403);
    expect(body(refused)).toEqual({
      code: 1805,
      msg: 'Please confirm this with the code we send you by SMS',
      data: null,
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/withdrawals?lang=en',
      headers: { token: u.token },
    });
    expect(body<{ total: number }>(list).data.total).toBe(0);
  });

  it('names the amount and the account, binds the token to them, and spends it once', async () => {
    const u = await readyToWithdraw();
    const action = { action: 'withdrawal', amount: yen(10_000), bank_account_id: u.accountId } as const;
    const sent = await askCode(u.token, u.phone, action);
    expect(sent.secret).toBe('txn_password');
    expect(sent.text).toContain('withdrawal of ¥10,000');
    expect(sent.text).toContain('••567');
    expect(sent.text).toContain(sent.code);
    const granted = await verify(u.token, {
      challenge_id: sent.challenge_id,
      code: sent.code,
      txn_password: TXN,
    });
    expect(body(granted)).toMatchObject({ code: 1, data: { action: 'withdrawal' } });
    const token = body<{ step_up_token: string }>(granted).data.step_up_token;

    // another amount is refused, and the refusal does not spend the token
    expect(body(await withdraw(u.token, u.accountId, yen(20_000), token)).code).toBe(1736);
    const filed = await withdraw(u.token, u.accountId, yen(10_000), token);
    expect(body(filed)).toMatchObject({ code: 1, data: { amount: yen(10_000), status: 'pending' } });
    expect(body(await withdraw(u.token, u.accountId, yen(10_000), token)).code).toBe(1736);
  });

  it('a code has one try: a wrong code spends it; a missing password does not', async () => {
    const u = await readyToWithdraw();
    const action = { action: 'withdrawal', amount: yen(1_000), bank_account_id: u.accountId } as const;
    const sent = await askCode(u.token, u.phone, action);
    const wrong = sent.code === '000000' ? '000001' : '000000';
    // the password the response named is missing: refused before the code is looked at
    expect(body(await verify(u.token, { challenge_id: sent.challenge_id, code: sent.code })).code).toBe(1803);
    expect(
      body(await verify(u.token, { challenge_id: sent.challenge_id, code: wrong, txn_password: TXN })).code,
    ).toBe(1802);
    expect(
      body(await verify(u.token, { challenge_id: sent.challenge_id, code: sent.code, txn_password: TXN }))
        .code,
    ).toBe(1802);
    // a new code waits for the resend interval
    expect(body(await post('/api/step-up/sms', { token: u.token }, action)).code).toBe(1005);
  });

  it('refuses a code older than five minutes, and a token older than five minutes', async () => {
    const u = await readyToWithdraw();
    const action = { action: 'withdrawal', amount: yen(1_000), bank_account_id: u.accountId } as const;
    const sent = await askCode(u.token, u.phone, action);
    const late = await later(5 * 60_000 + 1, () =>
      verify(u.token, { challenge_id: sent.challenge_id, code: sent.code, txn_password: TXN }),
    );
    expect(body(late).code).toBe(1802);

    const token = await later(61_000, () => stepUpBySms(t, u.token, u.phone, action, { txn_password: TXN }));
    const spent = await later(61_000 + 5 * 60_000 + 1, () =>
      withdraw(u.token, u.accountId, yen(1_000), token),
    );
    expect(body(spent).code).toBe(1736);
  });

  it('counts a wrong transaction password against its failure counter, and locks it at the fifth', async () => {
    const u = await readyToWithdraw();
    const action = { action: 'withdrawal', amount: yen(1_000), bank_account_id: u.accountId } as const;
    const answers: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      answers.push(
        await later(i * 61_000, async () => {
          const sent = await askCode(u.token, u.phone, action);
          const res = await verify(u.token, {
            challenge_id: sent.challenge_id,
            code: sent.code,
            txn_password: '999999',
          });
          return body(res).code;
        }),
      );
    }
    expect(answers).toEqual([1012, 1012, 1012, 1012, 1015, 1015]);
    // the withdrawal's own check goes through the same counter: locked too
    expect(body(await withdraw(u.token, u.accountId, yen(1_000))).code).toBe(1015);
  });
});

describe('the other actions', () => {
  it('without a transaction password, the login password answers; the SMS names the action', async () => {
    const u = await registerAndLogin(t);
    const sent = await askCode(u.token, u.phone, { action: 'change_password' });
    expect(sent.secret).toBe('password');
    expect(sent.text).toContain('changing your login password');
    expect(
      body(await verify(u.token, { challenge_id: sent.challenge_id, code: sent.code, txn_password: TXN }))
        .code,
    ).toBe(1804);
    const granted = await verify(u.token, {
      challenge_id: sent.challenge_id,
      code: sent.code,
      password: u.password,
    });
    const token = body<{ step_up_token: string }>(granted).data.step_up_token;
    const changed = await post(
      '/api/user/changePassword',
      { token: u.token },
      {
        old_password: u.password,
        new_password: 'kbt8better',
        confirm_password: 'kbt8better',
        step_up_token: token,
      },
    );
    expect(body(changed).code, changed.body).toBe(1);
  });

  it('a bank-account step-up names the account and is bound to it', async () => {
    const u = await registerAndLogin(t);
    const account = { bank_code: '0001', branch_code: '100', account_number: '7654321' };
    const sent = await askCode(u.token, u.phone, { action: 'bank_account', ...account });
    expect(sent.text).toContain('0001 100 ••321');
    const token = body<{ step_up_token: string }>(
      await verify(u.token, { challenge_id: sent.challenge_id, code: sent.code, password: u.password }),
    ).data.step_up_token;
    const add = (number: string) =>
      post(
        '/api/bank-accounts',
        { token: u.token },
        {
          holder_name: 'ヤマダ タロウ',
          ...account,
          account_number: number,
          login_password: u.password,
          step_up_token: token,
        },
      );
    expect(body(await add('1111111')).code).toBe(1736);
    expect(body(await add('7654321')).code).toBe(1);
  });

  it('a passkey holder steps up with the passkey, not by SMS', async () => {
    const u = await registerAndLogin(t);
    const key = new SoftAuthenticator(ORIGIN, RP_ID);
    const options = body<{ options: { challenge: string } }>(
      await post('/api/passkeys/options', { token: u.token }),
    ).data.options;
    expect(
      body(await post('/api/passkeys', { token: u.token }, { credential: key.register(options) })).code,
    ).toBe(1);
    expect(body(await post('/api/step-up/sms', { token: u.token }, { action: 'change_password' })).code).toBe(
      1801,
    );
  });

  it('bad input is a 400-class error in the envelope', async () => {
    const u = await registerAndLogin(t);
    const res = await verify(u.token, { challenge_id: 'short', code: '12' });
    expect(res.statusCode).toBe(400);
    expect(body(res).code).toBe(400);
  });
});
