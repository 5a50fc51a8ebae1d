import { z } from 'zod';
import { ZStepUpToken } from './auth.js';
import { ZBankAccountFields, ZYenAmountInSen } from './funds.js';

/**
 * Passkeys (WebAuthn) and step-up (issue 22, ADR 0031). The WebAuthn options and credentials are the JSON
 * shapes of SimpleWebAuthn (`PublicKeyCredentialCreationOptionsJSON`, `RegistrationResponseJSON`...); the
 * contract checks their outer shape and the server's WebAuthn library checks the rest.
 */

/** Options for navigator.credentials.create/get, as JSON (the library's own type on each side). */
export const ZWebAuthnOptions = z.looseObject({ challenge: z.string() });

/** What the browser answered (a registration or an assertion), as JSON. */
export const ZWebAuthnCredential = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1).max(8192) }),
});

export const PASSKEY_NAME_MAX = 40;
export const ZPasskeyName = z
  .string({ error: 'validation.passkeyNameRequired' })
  .trim()
  .min(1, { error: 'validation.passkeyNameRequired' })
  .max(PASSKEY_NAME_MAX, { error: 'validation.passkeyNameLength' });

export const ZPasskey = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type TPasskey = z.infer<typeof ZPasskey>;

// GET /api/passkeys
export const ZPasskeyList = z.object({ items: z.array(ZPasskey) });
export type TPasskeyList = z.infer<typeof ZPasskeyList>;

// POST /api/passkeys/options (creation options for a new passkey of the signed-in user)
export const ZWebAuthnOptionsResponse = z.object({ options: ZWebAuthnOptions });
export type TWebAuthnOptionsResponse = z.infer<typeof ZWebAuthnOptionsResponse>;

// POST /api/passkeys
export const ZPasskeyCreate = z.strictObject({
  name: ZPasskeyName.optional(),
  credential: ZWebAuthnCredential,
});
export type TPasskeyCreate = z.infer<typeof ZPasskeyCreate>;

// PATCH /api/passkeys/:id
export const ZPasskeyRename = z.strictObject({ name: ZPasskeyName });
export type TPasskeyRename = z.input<typeof ZPasskeyRename>;
export const ZPasskeyParams = z.object({ id: z.coerce.number().int().positive() });

// POST /api/console/passkeys: an operator's new passkey also carries the step-up token of the add (ADR 0049)
export const ZConsolePasskeyCreate = ZPasskeyCreate.extend({
  step_up_token: ZStepUpToken.optional(),
}).strict();

// POST /api/passkeys/:id/remove
export const ZPasskeyRemove = z.strictObject({ step_up_token: ZStepUpToken.optional() });

// POST /api/auth/passkey/verify (sign in with a discoverable passkey: no phone number typed)
export const ZPasskeyLogin = z.strictObject({ credential: ZWebAuthnCredential });

/** The actions that need a fresh passkey assertion, and what each is bound to. */
export const STEP_UP_ACTIONS = [
  'withdrawal',
  'bank_account',
  'change_password',
  'change_txn_password',
  'remove_passkey',
] as const;
export type StepUpAction = (typeof STEP_UP_ACTIONS)[number];

// POST /api/step-up/options: the action and the details the assertion will be bound to
export const ZStepUpRequest = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('withdrawal'),
    amount: ZYenAmountInSen,
    bank_account_id: z.number().int().positive(),
  }),
  ZBankAccountFields.pick({ bank_code: true, branch_code: true, account_number: true, yucho: true })
    .extend({ action: z.literal('bank_account'), replaces_id: z.number().int().positive().optional() })
    .strict(),
  z.strictObject({ action: z.literal('change_password') }),
  z.strictObject({ action: z.literal('change_txn_password') }),
  z.strictObject({ action: z.literal('remove_passkey'), passkey_id: z.number().int().positive() }),
]);
export type TStepUpRequest = z.input<typeof ZStepUpRequest>;

/**
 * The canonical string a step-up is bound to: the action's amount, account or passkey. The server computes
 * it from the step-up request and again from the action's own request; they must be equal.
 */
export function stepUpDetails(request: z.output<typeof ZStepUpRequest>): string {
  switch (request.action) {
    case 'withdrawal':
      return `amount=${request.amount};bank_account_id=${request.bank_account_id}`;
    case 'bank_account':
      return JSON.stringify([
        request.bank_code,
        request.branch_code ?? null,
        request.account_number ?? null,
        request.yucho ?? null,
        request.replaces_id ?? null,
      ]);
    case 'remove_passkey':
      return `passkey_id=${request.passkey_id}`;
    case 'change_password':
    case 'change_txn_password':
      return '';
  }
}

// POST /api/step-up/sms (a user without a passkey): an SMS code naming the action, for /api/step-up/verify
export const ZStepUpSmsSent = z.object({
  challenge_id: z.string(),
  /** the secret /api/step-up/verify wants with the code: the transaction password, or (none set) the login one */
  secret: z.enum(['txn_password', 'password']),
  expires_at: z.string(),
});
export type TStepUpSmsSent = z.infer<typeof ZStepUpSmsSent>;

// POST /api/step-up/verify: a passkey's assertion, or (no passkey) the SMS code with the password it names
export const ZStepUpSmsVerify = z.strictObject({
  challenge_id: z.string().regex(/^[\w-]{16,128}$/),
  code: z.string().regex(/^\d{6}$/, { error: 'validation.smsCodeFormat' }),
  txn_password: z.string().min(1).max(128).optional(),
  password: z.string().min(1).max(128).optional(),
});
export const ZStepUpVerify = z.union([z.strictObject({ credential: ZWebAuthnCredential }), ZStepUpSmsVerify]);
export const ZStepUpGranted = z.object({
  step_up_token: z.string(),
  action: z.enum(STEP_UP_ACTIONS),
  expires_at: z.string(),
});
export type TStepUpGranted = z.infer<typeof ZStepUpGranted>;

// ---------------------------------------------------------------- the console's step-up (ADR 0049)

/** What an operator steps up for: adding a passkey, or removing one named passkey. */
export const ZConsoleStepUpRequest = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add_passkey') }),
  z.strictObject({ action: z.literal('remove_passkey'), passkey_id: z.number().int().positive() }),
]);
export type TConsoleStepUpRequest = z.infer<typeof ZConsoleStepUpRequest>;
export type ConsoleStepUpAction = TConsoleStepUpRequest['action'];

/** The canonical string an operator's step-up is bound to (the passkey removed, or nothing for an add). */
export function consoleStepUpDetails(request: TConsoleStepUpRequest): string {
  return request.action === 'remove_passkey' ? `passkey_id=${request.passkey_id}` : '';
}

// POST /api/console/step-up/verify: the assertion of one of the operator's passkeys
export const ZConsoleStepUpVerify = z.strictObject({ credential: ZWebAuthnCredential });
// POST /api/console/step-up/password: an operator without a passkey answers with the password instead
export const ZConsoleStepUpPassword = z.strictObject({
  request: ZConsoleStepUpRequest,
  password: z.string().min(1).max(256),
});
export const ZConsoleStepUpGranted = z.object({
  step_up_token: z.string(),
  action: z.enum(['add_passkey', 'remove_passkey']),
  expires_at: z.string(),
});
export type TConsoleStepUpGranted = z.infer<typeof ZConsoleStepUpGranted>;

// ---------------------------------------------------------------- the user's sessions

/** A signed-in session: its device (from the user agent), its place (the address's network), its times. */
export const ZSession = z.object({
  id: z.number().int(),
  device: z.string().nullable(),
  place: z.string().nullable(),
  started_at: z.string(),
  last_seen_at: z.string(),
  /** the session this request came with */
  current: z.boolean(),
});
export type TSession = z.infer<typeof ZSession>;

// GET /api/sessions
export const ZSessionList = z.object({ items: z.array(ZSession) });
export type TSessionList = z.infer<typeof ZSessionList>;

// POST /api/sessions/:id/revoke (ends it at once, over HTTP and the realtime socket)
export const ZSessionParams = z.object({ id: z.coerce.number().int().positive() });
