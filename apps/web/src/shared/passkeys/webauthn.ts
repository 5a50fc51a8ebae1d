import {
  ERRORS,
  ZStepUpGranted,
  ZStepUpSmsSent,
  ZWebAuthnOptionsResponse,
  type TStepUpRequest,
} from '@kabuto/contract';
import { isApiError } from '@kabuto/client/api-error';
import { startAuthentication } from '@simplewebauthn/browser';
import { api } from '../api/client';
import { showToast } from '../ui/overlays';
import { askSmsCode } from './sms-step-up';
import { requestOptions } from './support';

/*
 * Passkeys (ADR 0031): the server's options go to the browser's WebAuthn API through SimpleWebAuthn and the
 * answer goes back as JSON (the options' types, the support check and the failure shown: support.ts).
 */

/** The secrets the action's form already holds, so that the SMS step-up does not ask for them again. */
export interface KnownSecrets {
  txn_password?: string;
  password?: string;
}

/**
 * A step-up token for one action (its amount, account or passkey), to send as the action's `step_up_token`:
 * from a fresh passkey assertion, or, for a user without a passkey, from an SMS code naming the action plus
 * the transaction password (or the login password when none is set). Throws when the user closes the prompt
 * or the server refuses.
 */
export async function stepUp(request: TStepUpRequest, known: KnownSecrets = {}): Promise<string> {
  let options: unknown;
  try {
    ({ options } = await api.request({
      method: 'POST',
      path: '/step-up/options',
      body: request,
      schema: ZWebAuthnOptionsResponse,
      notify: false,
    }));
  } catch (error) {
    if (isApiError(error) && error.code === ERRORS.PASSKEY_NOT_FOUND.code) return smsStepUp(request, known);
    if (isApiError(error)) showToast(error.msg, 2000);
    throw error;
  }
  const credential = await startAuthentication({ optionsJSON: requestOptions(options) });
  const granted = await api.request({
    method: 'POST',
    path: '/step-up/verify',
    body: { credential },
    schema: ZStepUpGranted,
  });
  return granted.step_up_token;
}

/**
 * The last SMS step-up's token, kept until it expires or its action succeeds: an action refused for another
 * reason (a mistyped holder name) is sent again with it, not with a new SMS (which waits a minute).
 */
let lastSms: { key: string; token: string; expiresAt: number } | null = null;

/** The action the last step-up was for has succeeded: its token is spent. */
export function forgetStepUp(): void {
  lastSms = null;
}

/** The step-up of a user without a passkey: an SMS code naming the action, and a password (ADR 0031). */
async function smsStepUp(request: TStepUpRequest, known: KnownSecrets): Promise<string> {
  const key = JSON.stringify(request);
  if (lastSms?.key === key && lastSms.expiresAt > Date.now() + 30_000) return lastSms.token;
  const sent = await api.request({
    method: 'POST',
    path: '/step-up/sms',
    body: request,
    schema: ZStepUpSmsSent,
  });
  const held = known[sent.secret];
  const answer = await askSmsCode(held === undefined ? sent.secret : null);
  const granted = await api.request({
    method: 'POST',
    path: '/step-up/verify',
    body: { challenge_id: sent.challenge_id, code: answer.code, [sent.secret]: held ?? answer.secret },
    schema: ZStepUpGranted,
  });
  lastSms = { key, token: granted.step_up_token, expiresAt: Date.parse(granted.expires_at) };
  return granted.step_up_token;
}
