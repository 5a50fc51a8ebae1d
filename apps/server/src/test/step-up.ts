import { expect } from 'vitest';
import type { TStepUpRequest } from '@kabuto/contract';
import { body, type TestApp } from './harness.js';

/**
 * Steps a user WITHOUT a passkey up by SMS (ADR 0031): asks for the code bound to `action`, reads it from the
 * test SMS sender, and answers it with `secret` (the transaction password, or the login password when the
 * user has none). Answers the step-up token for the action's route.
 */
export async function stepUpBySms(
  t: TestApp,
  token: string,
  phone: string,
  action: TStepUpRequest,
  secret: { txn_password: string } | { password: string },
): Promise<string> {
  const sent = await t.app.inject({
    method: 'POST',
    url: '/api/step-up/sms?lang=en',
    headers: { token },
    payload: action,
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const { challenge_id: challengeId } = body<{ challenge_id: string }>(sent).data;
  const code = t.sms.lastCodeFor(phone);
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/step-up/verify?lang=en',
    headers: { token },
    payload: { challenge_id: challengeId, code, ...secret },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return body<{ step_up_token: string }>(verified).data.step_up_token;
}
