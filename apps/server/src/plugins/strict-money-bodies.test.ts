import { signInOperator } from '../test/operators.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, registerAndLogin, type TestApp } from '../test/harness.js';

/**
 * Hostile input (issue 22, ADR 0030): the body of every route that moves money refuses a field it does not
 * know with a 400 in the envelope naming it, instead of dropping it silently. One unknown field is enough:
 * zod reports it beside whatever else is missing.
 */
let t: TestApp;
let user: string;
let operator: string;
beforeAll(async () => {
  t = await createTestApp();
  user = (await registerAndLogin(t)).token;
  operator = (await signInOperator(t, 'moneyadmin', 'administrator')).authorization.slice('Bearer '.length);
});
afterAll(() => t.close());

const customers = [
  '/api/deposits',
  '/api/withdrawals',
  '/api/bank-accounts',
  '/api/ipo/offerings/1/applications',
  '/api/loans',
  '/api/loans/1/repay',
  '/api/products/1/buy',
];
const consoles = [
  '/api/console/reconciliation/credit',
  '/api/console/reconciliation/transfers/1/deposit',
  '/api/console/loans/1/approve',
];

describe('money routes refuse unknown body fields', () => {
  it.each([...customers.map((url) => [url, 'user']), ...consoles.map((url) => [url, 'operator'])])(
    '%s (%s)',
    async (url, who) => {
      const response = await t.app.inject({
        method: 'POST',
        url: `${url}?lang=en`,
        headers: {
          ...(who === 'user' ? { token: user } : { authorization: `Bearer ${operator}` }),
          'idempotency-key': `unknown-field-${url}`,
        },
        payload: { surprise: 1 },
      });
      expect(response.statusCode, response.body).toBe(400);
      const answer = body<{ issues: { field: string; rule: string; message: string }[] }>(response);
      expect(answer.code).toBe(400);
      expect(answer.data.issues).toContainEqual({
        field: 'surprise',
        rule: 'unrecognized_keys',
        message: 'surprise is not a field this request accepts',
      });
    },
  );
});
