import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DEPOSIT_MAX_PENDING } from '@kabuto/contract';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';

/** Issue 22: money routes refuse fields they do not know (they were dropped silently), naming the field. */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await registerAndLogin(t));
});
afterAll(() => t.close());

const post = (url: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `${url}?lang=en`,
    headers: { token, 'idempotency-key': randomUUID() },
    payload,
  });

describe('money routes and unknown fields', () => {
  it('a withdrawal with a field it does not take (a "fee") is refused before anything is filed', async () => {
    const response = await post('/api/withdrawals', {
      amount: 100_000,
      bank_account_id: 1,
      txn_password: '123456',
      fee: 0,
    });
    expect(response.statusCode).toBe(400);
    expect(body(response)).toMatchObject({
      code: 400,
      data: { issues: [{ field: 'fee', rule: 'unrecognized_keys' }] },
    });
  });

  it('a deposit notice with an unknown field is refused likewise', async () => {
    const response = await post('/api/deposits', {
      amount: 100_000,
      transfer_date: '2026-11-24',
      status: 'approved',
    });
    expect(response.statusCode).toBe(400);
    expect(body(response)).toMatchObject({
      data: { issues: [{ field: 'status', rule: 'unrecognized_keys' }] },
    });
  });
});

describe('deposit notices: a minimum and a cap on those waiting', () => {
  it('refuses a notice under ¥1,000 with the rule, in the reader’s language', async () => {
    const response = await post('/api/deposits', { amount: 99_900, transfer_date: '2026-11-24' });
    expect(response.statusCode).toBe(400);
    expect(body(response)).toMatchObject({
      msg: 'A deposit notice must be at least ¥1,000',
      data: { issues: [{ field: 'amount' }] },
    });
  });

  it('takes five notices waiting for review and refuses the sixth, writing nothing', async () => {
    const user = await registerAndLogin(t);
    const file = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/deposits?lang=en',
        headers: { token: user.token, 'idempotency-key': randomUUID() },
        payload: { amount: 100_000, transfer_date: '2026-11-24' },
      });
    for (let i = 0; i < DEPOSIT_MAX_PENDING; i += 1) expect(body(await file()).code).toBe(1);
    const sixth = await file();
    expect(sixth.statusCode).toBe(429);
    expect(body(sixth)).toMatchObject({
      code: 1351,
      msg: expect.stringContaining('5 deposit notices') as string,
    });
    const listed = await t.app.inject({ url: '/api/deposits', headers: { token: user.token } });
    expect(body<{ total: number }>(listed).data.total).toBe(DEPOSIT_MAX_PENDING);
  });
});
