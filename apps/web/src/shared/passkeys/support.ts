import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/*
 * What a page needs of passkeys before the user taps one (ADR 0031): whether the browser can use them, and the
 * server's options typed for SimpleWebAuthn. No code of SimpleWebAuthn's: that comes with the tap (webauthn.ts,
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
