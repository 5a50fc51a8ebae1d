import { ERRORS, ZStepUpGranted, ZWebAuthnOptionsResponse, type TStepUpRequest } from '@kabuto/contract';
import { isApiError } from '@kabuto/client/api-error';
import {
  startAuthentication,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { api } from '../api/client';
import { i18n } from '../i18n/i18n';
import { showToast } from '../ui/toast';

/*
 * Passkeys (ADR 0031): the server's options go to the browser's WebAuthn API through SimpleWebAuthn and the
 * answer goes back as JSON. The contract checks the options' outer shape; their inner shape is the server
 * library's, the same JSON SimpleWebAuthn's browser half takes.
 */
export const creationOptions = (options: unknown) => options as PublicKeyCredentialCreationOptionsJSON;
export const requestOptions = (options: unknown) => options as PublicKeyCredentialRequestOptionsJSON;

/** Whether this browser can make and use passkeys at all. */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/**
 * What a failed passkey step tells the user: the API client has already shown the server's refusal; a
 * browser-side failure (the prompt closed, no authenticator) is said here.
 */
export function showPasskeyFailure(error: unknown): void {
  if (isApiError(error)) return;
  showToast(i18n.t('passkeys.cancelled'), 2000);
}

/**
 * A step-up token for one action (its amount, account or passkey) from a fresh passkey assertion, to send
 * as the action's `step_up_token`; undefined when the user has no passkey (the action's own password
 * checks then stand). Throws when the user closes the prompt or the server refuses.
 */
export async function stepUp(request: TStepUpRequest): Promise<string | undefined> {
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
    if (isApiError(error) && error.code === ERRORS.PASSKEY_NOT_FOUND.code) return undefined;
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
