import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  MESSAGES,
  SMS_CODE_LENGTH,
  SMS_RESEND_SECONDS,
  interpolate,
  stepUpDetails,
  type Locale,
  type StepUpAction,
  type TStepUpSmsSent,
  type ZStepUpRequest,
  type ZStepUpSmsVerify,
} from '@kabuto/contract';
import type { z } from 'zod';
import { bankAccounts, users, webauthnChallenges } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { newNumericCode, newToken, sha256Hex } from '../../lib/tokens.js';
import { countSms, type SmsCaps } from '../auth/throttle.js';
import { checkSecret } from '../auth/secrets.js';
import { smsMoney } from '../messages/messages.js';
import { CHALLENGE_MINUTES, STEP_UP_MINUTES, hasPasskey, type PasskeyDeps } from './passkeys.js';

/*
 * Step-up for a user WITHOUT a passkey (issue 22, ADR 0031): an SMS code whose text names the action and its
 * amount or account, answered with the transaction password (or, none set yet, the login password). The
 * challenge is a row of webauthn_challenges like a passkey's: `challenge` holds `sms:<id>:<hash of the code>`
 * (the colons keep it from ever matching a browser's base64url challenge), and the token it yields is the same
 * `step_up_token`, spent by the same `requireStepUp`. A code has ONE try: a wrong code, or a wrong password
 * with the right code, spends the challenge, so guessing the code costs an SMS each time (and the SMS caps
 * and the resend interval bound those), and the password is only ever checked behind a right code.
 */

export interface SmsStepUpDeps extends PasskeyDeps {
  smsCaps: SmsCaps;
}

const PREFIX = 'sms:';
type SmsAction = Exclude<StepUpAction, 'remove_passkey'>;
const codeHash = (id: string, code: string) => sha256Hex(`${id}:${code}`);

/** How the SMS names the account: its bank and branch codes and the last digits of its number. */
function accountLabel(bank: string | null, branch: string | null, number: string): string {
  const tail = `••${number.slice(-3)}`;
  return [bank, branch, tail].filter((part) => part !== null && part !== '').join(' ');
}

/** What the SMS names besides the code: the amount and account; refuses an account that is not the user's. */
async function smsParams(
  deps: SmsStepUpDeps,
  userId: number,
  request: z.output<typeof ZStepUpRequest>,
  locale: Locale,
): Promise<Record<string, string>> {
  const params: Record<string, string> = { minutes: String(CHALLENGE_MINUTES) };
  switch (request.action) {
    case 'withdrawal': {
      const [account] = await deps.db
        .select()
        .from(bankAccounts)
        .where(and(eq(bankAccounts.id, request.bank_account_id), eq(bankAccounts.userId, userId)));
      if (!account) throw new AppError('BANK_ACCOUNT_NOT_FOUND');
      params.amount = smsMoney(request.amount, locale);
      params.account = `${account.bankName} ${account.branchName} ••${account.accountNumber.slice(-3)}`;
      break;
    }
    case 'bank_account':
      if (request.replaces_id !== undefined) {
        const [replaced] = await deps.db
          .select({ id: bankAccounts.id })
          .from(bankAccounts)
          .where(and(eq(bankAccounts.id, request.replaces_id), eq(bankAccounts.userId, userId)));
        if (!replaced) throw new AppError('BANK_ACCOUNT_NOT_FOUND');
      }
      params.account = request.yucho
        ? accountLabel(request.bank_code, request.yucho.symbol, request.yucho.number)
        : accountLabel(request.bank_code, request.branch_code ?? null, request.account_number ?? '');
      break;
    case 'change_password':
    case 'change_txn_password':
      break;
    case 'remove_passkey':
      // only a passkey holder has one to remove, and a passkey holder steps up with a passkey
      throw new AppError('PASSKEY_NOT_FOUND');
  }
  return params;
}

/** Sends the SMS code of a step-up to a user without a passkey, bound to the action and its details. */
export async function smsStepUp(
  deps: SmsStepUpDeps,
  userId: number,
  request: z.output<typeof ZStepUpRequest>,
  client: string,
  locale: Locale,
): Promise<TStepUpSmsSent> {
  if (await hasPasskey(deps.db, userId)) throw new AppError('STEP_UP_USE_PASSKEY');
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED');
  const now = deps.clock.now();
  const [last] = await deps.db
    .select({ createdAt: webauthnChallenges.createdAt, answered: webauthnChallenges.tokenHash })
    .from(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.userId, userId),
        eq(webauthnChallenges.purpose, 'step_up'),
        // per action: a bank account added a moment ago does not hold up a withdrawal's code
        eq(webauthnChallenges.action, request.action),
        sql`left(${webauthnChallenges.challenge}, ${PREFIX.length}) = ${PREFIX}`,
      ),
    )
    .orderBy(desc(webauthnChallenges.createdAt))
    .limit(1);
  // a code answered rightly (it gave a token) does not hold up the next action's: only an unanswered or
  // wrongly answered one makes the user wait before another SMS
  if (last && last.answered === null) {
    const waitMs = last.createdAt.getTime() + SMS_RESEND_SECONDS * 1000 - now.getTime();
    if (waitMs > 0) throw new AppError('SMS_RESEND_TOO_SOON', { seconds: Math.ceil(waitMs / 1000) });
  }
  const params = await smsParams(deps, userId, request, locale);
  await countSms(deps.db, deps.smsCaps, { client, phone: user.phone }, now);
  const id = newToken();
  const code = newNumericCode(SMS_CODE_LENGTH);
  const expiresAt = new Date(now.getTime() + CHALLENGE_MINUTES * 60_000);
  await deps.db.insert(webauthnChallenges).values({
    userId,
    purpose: 'step_up',
    challenge: `${PREFIX}${id}:${codeHash(id, code)}`,
    action: request.action,
    details: stepUpDetails(request),
    createdAt: now,
    expiresAt,
  });
  await deps.sms.send({
    phone: user.phone,
    code,
    purpose: `step_up.${request.action}`,
    text: interpolate(MESSAGES[locale].stepUpSms[request.action as SmsAction], { ...params, code }),
    sentAt: now.toISOString(),
  });
  return {
    challenge_id: id,
    secret: user.txnPasswordHash ? 'txn_password' : 'password',
    expires_at: expiresAt.toISOString(),
  };
}

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Answers an SMS step-up: the code (one try), then the transaction password, or the login password when none
 * is set, through the secret's failure counter. Answers a step-up token for the challenge's action.
 */
export async function verifySmsStepUp(
  deps: SmsStepUpDeps,
  userId: number,
  body: z.output<typeof ZStepUpSmsVerify>,
  locale: Locale,
): Promise<{ step_up_token: string; action: StepUpAction; expires_at: string }> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED');
  // the secret asked for is checked for presence before the code is spent: a forgotten field costs nothing
  const secret = user.txnPasswordHash
    ? { kind: 'txn' as const, hash: user.txnPasswordHash, attempt: body.txn_password }
    : { kind: 'login' as const, hash: user.passwordHash, attempt: body.password };
  if (secret.attempt === undefined) {
    throw new AppError(secret.kind === 'txn' ? 'STEP_UP_TXN_PASSWORD_REQUIRED' : 'STEP_UP_PASSWORD_REQUIRED');
  }
  const now = deps.clock.now();
  const prefix = `${PREFIX}${body.challenge_id}:`;
  const [row] = await deps.db
    .update(webauthnChallenges)
    .set({ usedAt: now })
    .where(
      and(
        sql`left(${webauthnChallenges.challenge}, ${prefix.length}) = ${prefix}`,
        eq(webauthnChallenges.purpose, 'step_up'),
        eq(webauthnChallenges.userId, userId),
        isNull(webauthnChallenges.usedAt),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning();
  if (!row || !sameHash(row.challenge.slice(prefix.length), codeHash(body.challenge_id, body.code))) {
    throw new AppError('STEP_UP_CODE_INVALID');
  }
  await checkSecret(
    deps,
    { id: user.id, phone: user.phone },
    secret.kind,
    secret.hash,
    secret.attempt,
    locale,
  );
  const token = newToken();
  const expiresAt = new Date(now.getTime() + STEP_UP_MINUTES * 60_000);
  await deps.db
    .update(webauthnChallenges)
    .set({ tokenHash: sha256Hex(token), expiresAt })
    .where(eq(webauthnChallenges.id, row.id));
  return { step_up_token: token, action: row.action as StepUpAction, expires_at: expiresAt.toISOString() };
}
