import { isApiError } from '@kabuto/client/api-error';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { i18n } from '../i18n/i18n';
import { showToast } from '../ui/overlays';

/*
 * What a page needs of passkeys before the user taps one (ADR 0031): whether the browser can use them, the
 * server's options typed for SimpleWebAuthn, and what a failed step tells the user. No code of SimpleWebAuthn's: that comes with the tap (webauthn.ts,
 * features/auth/api/passkey-login.ts; issue 21).
 *
 * The contract checks the options' outer shape; their inner shape is the server library's, the same JSON
 * SimpleWebAuthn's browser half takes.
 */
export const creationOptions = (options: unknown) => options as PublicKeyCredentialCreationOptionsJSON;
export const requestOptions = (options: unknown) => options as PublicKeyCredentialRequestOptionsJSON;

/** Whether this browser can make and use passkeys at all. */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** The user closed the SMS step-up's dialog: nothing was sent (sms-step-up.tsx). */
export class SmsStepUpCancelled extends Error {
  constructor() {
    super('the SMS step-up was cancelled');
    this.name = 'SmsStepUpCancelled';
  }
}

/**
 * What a failed passkey step tells the user: the API client has already shown the server's refusal; a
 * browser-side failure (the prompt closed, no authenticator) is said here.
 */
export function showPasskeyFailure(error: unknown): void {
  if (isApiError(error)) return;
  if (error instanceof SmsStepUpCancelled) {
    showToast(i18n.t('smsStepUp.cancelled'), 2000);
    return;
  }
  showToast(i18n.t('passkeys.cancelled'), 2000);
}
