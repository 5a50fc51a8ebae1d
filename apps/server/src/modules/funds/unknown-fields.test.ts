import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    headers: { token, 'idempotency-key': `k-${Math.random()}` },
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
