import { operators } from '../db/schema.js';
import { hashPassword } from '../lib/passwords.js';
import { body, type TestApp } from './harness.js';

export type OperatorRole = (typeof operators.$inferInsert)['role'];

/** The password of the operators `signInOperator` makes. */
export const OPERATOR_PASSWORD = 'operator-password-1';

/**
 * A console operator inserted as test setup (its one-time password already replaced) and signed in by
 * password: answers its bearer header. The console's own sign-in, passkey and password-change flows have their
 * own tests (modules/console); this is for tests whose subject is what an operator does.
 */
export async function signInOperator(
  t: TestApp,
  username: string,
  role: OperatorRole = 'reviewer',
): Promise<{ authorization: string }> {
  await t.database.db.insert(operators).values({
    username,
    displayName: username,
    passwordHash: await hashPassword(OPERATOR_PASSWORD),
    role,
    mustChangePassword: false,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username, password: OPERATOR_PASSWORD },
  });
  const token = body<{ token?: string }>(res).data.token;
  if (token === undefined) throw new Error(`operator ${username} could not sign in: ${res.body}`);
  return { authorization: `Bearer ${token}` };
}
