import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SMS_CODE_LENGTH } from '../constants.js';
import { normalizeJapaneseMobile } from '../phone.js';

/**
 * Messages are catalogue keys (`validation.*`); the server and the web app translate them.
 * The same schema validates the form in the browser and the request on the server.
 */
export const ZPhone = z
  .string({ error: 'validation.phoneRequired' })
  .trim()
  .min(1, { error: 'validation.phoneRequired' })
  .max(32, { error: 'validation.phoneFormat' })
  .transform((value, ctx) => {
    const phone = normalizeJapaneseMobile(value);
    if (phone === null) {
      ctx.addIssue({ code: 'custom', message: 'validation.phoneFormat', params: { rule: 'format' } });
      return z.NEVER;
    }
    return phone;
  });

/**
 * A step-up token (POST /api/step-up/verify, ADR 0031): the fresh passkey assertion a money-moving or
 * account-changing request carries, spent by the one action it was given for.
 */
export const ZStepUpToken = z.string().min(20).max(200);

export const ZLoginPassword = z
  .string({ error: 'validation.passwordRequired' })
  .min(1, { error: 'validation.passwordRequired' })
  .min(PASSWORD_MIN_LENGTH, { error: 'validation.passwordLength' })
  .max(PASSWORD_MAX_LENGTH, { error: 'validation.passwordLength' });

export const ZTxnPassword = z
  .string({ error: 'validation.txnPasswordRequired' })
  .min(1, { error: 'validation.txnPasswordRequired' })
  .regex(new RegExp(`^\\d{${PASSWORD_MIN_LENGTH},${PASSWORD_MAX_LENGTH}}$`), {
    error: 'validation.txnPasswordDigits',
  });

export const ZSmsCode = z
  .string({ error: 'validation.smsCodeRequired' })
  .trim()
  .min(1, { error: 'validation.smsCodeRequired' })
  .regex(new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`), { error: 'validation.smsCodeFormat' });

export const ZInviteCode = z
  .string({ error: 'validation.inviteRequired' })
  .trim()
  .min(1, { error: 'validation.inviteRequired' })
  .max(32, { error: 'validation.inviteFormat' })
  .regex(/^[A-Za-z0-9]+$/, { error: 'validation.inviteFormat' })
  .transform((s) => s.toUpperCase());

/**
 * Object refinements run by default only when every field passed. The "passwords differ" message must
 * show beside the other failures, so these run whenever both texts are present.
 */
const bothStrings =
  (a: string, b: string) =>
  (payload: { value: unknown }): boolean => {
    const v = payload.value as Record<string, unknown> | null;
    return typeof v?.[a] === 'string' && typeof v[b] === 'string';
  };

// POST /api/auth/sendSmsCode
// `login` asks for the code that signs in past a throttled account (ADR 0030); the answer is the same
// whether or not the number is registered.
export const ZSendSmsCodeRequest = z.strictObject({
  phone: ZPhone,
  purpose: z.enum(['register', 'login']).default('register'),
});
export const ZSendSmsCodeResponse = z.object({
  resend_after_seconds: z.number().int(),
  expires_in_seconds: z.number().int(),
});

// POST /api/auth/register
export const ZRegisterRequest = z
  .strictObject({
    phone: ZPhone,
    password: ZLoginPassword,
    password_confirm: z
      .string({ error: 'validation.passwordConfirmRequired' })
      .min(1, { error: 'validation.passwordConfirmRequired' }),
    invite_code: ZInviteCode,
    sms_code: ZSmsCode,
  })
  .refine((v) => v.password === v.password_confirm, {
    error: 'validation.passwordMismatch',
    path: ['password_confirm'],
    when: bothStrings('password', 'password_confirm'),
  });
export type TRegisterRequest = z.input<typeof ZRegisterRequest>;
export const ZRegisterResponse = z.object({ user_id: z.number().int() });

// POST /api/auth/login
export const ZLoginRequest = z.strictObject({
  account: z
    .string({ error: 'validation.accountRequired' })
    .trim()
    .min(1, { error: 'validation.accountRequired' })
    .max(32, { error: 'validation.phoneFormat' }),
  password: z
    .string({ error: 'validation.passwordRequired' })
    .min(1, { error: 'validation.passwordRequired' })
    .max(128, { error: 'validation.passwordLength' }),
  agree: z.literal(true, { error: 'validation.agreementRequired' }),
  /** a code from sendSmsCode (purpose `login`): signs in past the failed-login throttle (ADR 0030) */
  sms_code: ZSmsCode.optional(),
});
export type TLoginRequest = z.input<typeof ZLoginRequest>;

// POST /api/user/changePassword
const newPasswordPair = {
  new_password: ZLoginPassword,
  confirm_password: z
    .string({ error: 'validation.passwordConfirmRequired' })
    .min(1, { error: 'validation.passwordConfirmRequired' }),
};
const samePair = (v: { new_password: string; confirm_password: string }) =>
  v.new_password === v.confirm_password;

export const ZChangePasswordRequest = z
  .strictObject({
    old_password: z
      .string({ error: 'validation.oldPasswordRequired' })
      .min(1, { error: 'validation.oldPasswordRequired' })
      .max(128, { error: 'validation.passwordLength' }),
    ...newPasswordPair,
    /** required when the user has a passkey (ADR 0031) */
    step_up_token: ZStepUpToken.optional(),
  })
  .refine(samePair, {
    error: 'validation.newPasswordMismatch',
    path: ['confirm_password'],
    when: bothStrings('new_password', 'confirm_password'),
  });
export type TChangePasswordRequest = z.input<typeof ZChangePasswordRequest>;
export const ZChangePasswordResponse = z.object({ revoked_sessions: z.number().int() });

// POST /api/user/setTxnPassword (first time: the login password confirms who is asking)
export const ZSetTxnPasswordRequest = z
  .strictObject({
    login_password: z
      .string({ error: 'validation.passwordRequired' })
      .min(1, { error: 'validation.passwordRequired' })
      .max(128, { error: 'validation.passwordLength' }),
    new_password: ZTxnPassword,
    confirm_password: z
      .string({ error: 'validation.passwordConfirmRequired' })
      .min(1, { error: 'validation.passwordConfirmRequired' }),
  })
  .refine(samePair, {
    error: 'validation.newPasswordMismatch',
    path: ['confirm_password'],
    when: bothStrings('new_password', 'confirm_password'),
  });
export type TSetTxnPasswordRequest = z.input<typeof ZSetTxnPasswordRequest>;

// POST /api/user/changeTxnPassword
export const ZChangeTxnPasswordRequest = z
  .strictObject({
    old_password: z
      .string({ error: 'validation.oldPasswordRequired' })
      .min(1, { error: 'validation.oldPasswordRequired' })
      .max(128, { error: 'validation.txnPasswordDigits' }),
    new_password: ZTxnPassword,
    confirm_password: z
      .string({ error: 'validation.passwordConfirmRequired' })
      .min(1, { error: 'validation.passwordConfirmRequired' }),
    /** required when the user has a passkey (ADR 0031) */
    step_up_token: ZStepUpToken.optional(),
  })
  .refine(samePair, {
    error: 'validation.newPasswordMismatch',
    path: ['confirm_password'],
    when: bothStrings('new_password', 'confirm_password'),
  });
export type TChangeTxnPasswordRequest = z.input<typeof ZChangeTxnPasswordRequest>;
