import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import {
  consoleStepUpDetails,
  type ConsoleStepUpAction,
  type Locale,
  type TConsoleStepUpGranted,
  type TConsoleStepUpRequest,
} from '@kabuto/contract';
import { operators, webauthnChallenges } from '../../db/schema.js';
import type { Executor } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { verifyPassword } from '../../lib/passwords.js';
import { newToken, sha256Hex } from '../../lib/tokens.js';
import {
  CHALLENGE_MINUTES,
  STEP_UP_MINUTES,
  grantStepUp,
  listOwnPasskeys,
  relyingParty,
  storeChallenge,
  type PasskeyDeps,
  type Subject,
} from '../passkeys/passkeys.js';
import { countOperatorPasswordFailure, type OperatorPrincipal } from './operators.js';

/*
 * The console's step-up (ADR 0049): adding or removing a passkey of the operator's own needs a proof of
 * presence made within STEP_UP_MINUTES, as a customer's sensitive actions do (ADR 0031). An operator with a
 * passkey asserts one of them; an operator without one (the first passkey) types the password again, which
 * counts toward the sign-in lockout. Either way the answer is a one-time token bound to the operator, the
 * action and the passkey removed, a row of webauthn_challenges like the customers' step-ups, spent by
 * `requireOperatorStepUp` in the action's transaction.
 */

const subjectOf = (operator: OperatorPrincipal): Subject => ({ kind: 'operator', id: operator.id });

/** Options for a passkey step-up: the operator's own passkeys only, bound to one action. */
export async function operatorStepUpOptions(
  deps: PasskeyDeps,
  operator: OperatorPrincipal,
  request: TConsoleStepUpRequest,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const own = await listOwnPasskeys(deps.db, subjectOf(operator));
  // no passkey yet: the first is added after the password (POST /step-up/password)
  if (own.length === 0) throw new AppError('PASSKEY_NOT_FOUND');
  if (request.action === 'remove_passkey' && !own.some((p) => p.id === request.passkey_id)) {
    throw new AppError('PASSKEY_NOT_FOUND');
  }
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).id,
    userVerification: 'required',
    allowCredentials: own.map((p) => ({ id: p.credentialId, transports: p.transports })),
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await storeChallenge(deps, {
    subject: 'operator',
    userId: null,
    operatorId: operator.id,
    purpose: 'step_up',
    challenge: options.challenge,
    action: request.action,
    details: consoleStepUpDetails(request),
  });
  return options;
}

const expiresAt = (clock: Clock) => new Date(clock.now().getTime() + STEP_UP_MINUTES * 60_000);

/** Verifies the assertion of one of the operator's passkeys; answers a token for the challenge's action. */
export async function verifyOperatorStepUp(
  deps: PasskeyDeps,
  operator: OperatorPrincipal,
  credential: AuthenticationResponseJSON,
): Promise<TConsoleStepUpGranted> {
  const granted = await grantStepUp(deps, subjectOf(operator), credential);
  return { ...granted, action: granted.action as ConsoleStepUpAction };
}

/**
 * The password step-up of an operator WITHOUT a passkey (their first one is being added). An operator with a
 * passkey is refused before the password is checked (OPERATOR_STEP_UP_USE_PASSKEY); a wrong password counts
 * toward the lockout like a wrong sign-in, and a locked operator is refused as at sign-in.
 */
export async function operatorPasswordStepUp(
  deps: PasskeyDeps & { lockMinutes: number },
  operator: OperatorPrincipal,
  request: TConsoleStepUpRequest,
  password: string,
  locale: Locale,
): Promise<TConsoleStepUpGranted> {
  const [row] = await deps.db.select().from(operators).where(eq(operators.id, operator.id));
  if (!row) throw new AppError('UNAUTHENTICATED');
  const now = deps.clock.now();
  if (row.lockedUntil && row.lockedUntil > now) {
    throw new AppError('OPERATOR_LOCKED', {
      until: row.lockedUntil.toLocaleString(locale, { timeZone: 'Asia/Tokyo' }),
    });
  }
  if ((await listOwnPasskeys(deps.db, subjectOf(operator))).length > 0) {
    throw new AppError('OPERATOR_STEP_UP_USE_PASSKEY');
  }
  if (!(await verifyPassword(row.passwordHash, password))) {
    await countOperatorPasswordFailure(deps, row.id, 'operator.step_up_failed');
    throw new AppError('OPERATOR_STEP_UP_PASSWORD_WRONG');
  }
  await deps.db.update(operators).set({ failedLogins: 0, lockedUntil: null }).where(eq(operators.id, row.id));
  const token = newToken();
  const until = expiresAt(deps.clock);
  await deps.db.insert(webauthnChallenges).values({
    subject: 'operator',
    userId: null,
    operatorId: operator.id,
    purpose: 'step_up',
    // the colon keeps it from ever matching a browser's base64url challenge
    challenge: `password:${newToken()}`,
    action: request.action,
    details: consoleStepUpDetails(request),
    createdAt: now,
    usedAt: now,
    expiresAt: until,
    tokenHash: sha256Hex(token),
  });
  return { step_up_token: token, action: request.action, expires_at: until.toISOString() };
}

/**
 * The gate of adding and removing a console passkey: a token given to this operator for this action (and
 * this passkey), unspent and unexpired, spent here once. Run it in the action's transaction, so that a
 * refused action (the last passkey, say) leaves the token unspent. Answers how the operator stepped up.
 */
export async function requireOperatorStepUp(
  deps: { db: Executor; clock: Clock },
  operatorId: number,
  request: TConsoleStepUpRequest,
  token: string | undefined,
): Promise<'passkey' | 'password'> {
  if (token === undefined) throw new AppError('OPERATOR_STEP_UP_REQUIRED');
  const now = deps.clock.now();
  const [spent] = await deps.db
    .update(webauthnChallenges)
    .set({ consumedAt: now })
    .where(
      and(
        eq(webauthnChallenges.tokenHash, sha256Hex(token)),
        eq(webauthnChallenges.subject, 'operator'),
        eq(webauthnChallenges.operatorId, operatorId),
        eq(webauthnChallenges.purpose, 'step_up'),
        eq(webauthnChallenges.action, request.action),
        eq(webauthnChallenges.details, consoleStepUpDetails(request)),
        isNotNull(webauthnChallenges.usedAt),
        isNull(webauthnChallenges.consumedAt),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  if (!spent) throw new AppError('OPERATOR_STEP_UP_INVALID');
  return spent.challenge.startsWith('password:') ? 'password' : 'passkey';
}
