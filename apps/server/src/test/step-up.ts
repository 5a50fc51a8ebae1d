import { expect } from 'vitest';
import type { TStepUpRequest } from '@kabuto/contract';
import { body, type TestApp } from './harness.js';
import { knownUsers } from './known-users.js';

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

/**
 * The step-up token a user without a passkey needs for `action` (ADR 0031): asks for the SMS code and
 * answers it with the secret the server names (the transaction password once one is set, else the login
 * password). For tests whose subject is the action itself, not the step-up.
 */
export async function smsStepUpToken(
  t: TestApp,
  user: { token: string; phone: string; password: string },
  action: TStepUpRequest,
  txnPassword = '123456',
): Promise<string> {
  const sent = await t.app.inject({
    method: 'POST',
    url: '/api/step-up/sms?lang=en',
    headers: { token: user.token },
    payload: action,
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const { challenge_id: challengeId, secret } = body<{ challenge_id: string; secret: string }>(sent).data;
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/step-up/verify?lang=en',
    headers: { token: user.token },
    payload: {
      challenge_id: challengeId,
      code: t.sms.lastCodeFor(user.phone),
      ...(secret === 'txn_password' ? { txn_password: txnPassword } : { password: user.password }),
    },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return body<{ step_up_token: string }>(verified).data.step_up_token;
}

/** The action a step-up route's request names (ADR 0031), from its path and body; null for other routes. */
function stepUpActionOf(url: string, payload: Record<string, unknown>): TStepUpRequest | null {
  const path = url.split('?')[0];
  const pick = (...keys: string[]) =>
    Object.fromEntries(keys.filter((k) => payload[k] !== undefined).map((k) => [k, payload[k]]));
  switch (path) {
    case '/api/withdrawals':
      return { action: 'withdrawal', ...pick('amount', 'bank_account_id') } as TStepUpRequest;
    case '/api/bank-accounts':
      return {
        action: 'bank_account',
        ...pick('bank_code', 'branch_code', 'account_number', 'yucho', 'replaces_id'),
      } as TStepUpRequest;
    case '/api/user/changePassword':
      return { action: 'change_password' };
    case '/api/user/changeTxnPassword':
      return { action: 'change_txn_password' };
    default:
      return null;
  }
}

/**
 * POSTs a step-up action as a user without a passkey would through the app: the SMS step-up first (answered
 * with the user's right secret, `txnPassword` or the login password), then the action with its token. When
 * the step-up itself is refused (a body the SMS step-up rejects, say), the action goes without a token and
 * answers its own refusal. For tests whose subject is the action, not the step-up (which has its own tests).
 */
export async function postStepped(
  t: TestApp,
  user: { token: string; phone: string; password: string },
  url: string,
  payload: Record<string, unknown>,
  options: { txnPassword?: string; headers?: Record<string, string> } = {},
) {
  const action = stepUpActionOf(url, payload);
  let stepUpToken: string | undefined;
  /** the step-up's own refusal (another user's account, say), which is what the app would show */
  let refusal: Awaited<ReturnType<typeof t.app.inject>> | undefined;
  if (action) {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/step-up/sms?lang=en',
      headers: { token: user.token },
      payload: action,
    });
    if (sent.statusCode !== 200) refusal = sent;
    if (sent.statusCode === 200) {
      const { challenge_id: challengeId, secret } = body<{ challenge_id: string; secret: string }>(sent).data;
      const verified = await t.app.inject({
        method: 'POST',
        url: '/api/step-up/verify?lang=en',
        headers: { token: user.token },
        payload: {
          challenge_id: challengeId,
          code: t.sms.lastCodeFor(user.phone),
          ...(secret === 'txn_password'
            ? { txn_password: options.txnPassword ?? '123456' }
            : { password: user.password }),
        },
      });
      if (verified.statusCode === 200) {
        stepUpToken = body<{ step_up_token: string }>(verified).data.step_up_token;
      } else {
        refusal = verified;
      }
    }
  }
  const response = await t.app.inject({
    method: 'POST',
    url: url.includes('lang=') ? url : `${url}${url.includes('?') ? '&' : '?'}lang=en`,
    headers: { token: user.token, ...options.headers },
    payload: stepUpToken === undefined ? payload : { ...payload, step_up_token: stepUpToken },
  });
  const known = knownUsers.get(user.token);
  if (known && action?.action === 'change_txn_password' && response.statusCode === 200) {
    known.txnPassword = String(payload['new_password']);
  }
  // refused for want of the step-up that was itself refused: answer the step-up's refusal
  if (refusal && body(response).code === 1805) return refusal;
  return response;
}

/**
 * t.app.inject for a test that knows only the user's token: a POST to a step-up route without a
 * `step_up_token`, by a user registerAndLogin made, goes through postStepped (the SMS step-up first); any
 * other request goes as it is. A passkey holder's SMS step-up is refused (1801), so theirs still goes without
 * a token and answers 1735.
 */
export async function injectStepped(
  t: TestApp,
  request: { method: 'POST'; url: string; headers: Record<string, string>; payload: object },
) {
  const { token, ...headers } = request.headers;
  const user = token === undefined ? undefined : knownUsers.get(token);
  const payload = request.payload as Record<string, unknown>;
  if (user && !('step_up_token' in payload) && stepUpActionOf(request.url, payload)) {
    return postStepped(t, user, request.url, payload, {
      headers,
      ...(user.txnPassword === undefined ? {} : { txnPassword: user.txnPassword }),
    });
  }
  const response = await t.app.inject(request);
  const path = request.url.split('?')[0];
  // the transaction password the next step-up answers with
  if (user && response.statusCode === 200 && typeof payload['new_password'] === 'string') {
    if (path === '/api/user/setTxnPassword') user.txnPassword = payload['new_password'];
  }
  // a new session of a known user (signed in again on a moved clock, say) steps up as that user
  if (path === '/api/auth/login' && response.statusCode === 200) {
    const same = [...knownUsers.values()].find((u) => u.phone === payload['account']);
    const token = body<{ token?: string }>(response).data.token;
    if (same && token) knownUsers.set(token, { ...same, token });
  }
  return response;
}
