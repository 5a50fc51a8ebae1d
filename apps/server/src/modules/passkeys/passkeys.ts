import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  MESSAGES,
  interpolate,
  stepUpDetails,
  type Locale,
  type StepUpAction,
  type TPasskey,
  type ZStepUpRequest,
} from '@kabuto/contract';
import type { z } from 'zod';
import type { Config } from '../../config.js';
import { operators, passkeys, users, webauthnChallenges } from '../../db/schema.js';
import type { Db, Executor } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { SmsSender } from '../../lib/sms.js';
import { newToken, sha256Hex } from '../../lib/tokens.js';
import type { RealtimeHub } from '../../realtime/hub.js';
import { notify, publishOutbox, type EventOutbox } from '../messages/messages.js';

/** A challenge (register, sign in, step up) can be answered within this many minutes. */
export const CHALLENGE_MINUTES = 5;
/** A step-up token must be spent on its action within this many minutes of the assertion. */
export const STEP_UP_MINUTES = 5;
export const MAX_PASSKEYS = 10;

export interface PasskeyDeps {
  db: Db;
  clock: Clock;
  config: Config;
  sms: SmsSender;
  realtime: RealtimeHub;
}

/** The relying party: ID and origin from configuration, or localhost on the server's port. */
export function relyingParty(config: Config): { id: string; origin: string; name: string } {
  const id = config.WEBAUTHN_RP_ID ?? 'localhost';
  const origin = config.WEBAUTHN_ORIGIN ?? `http://localhost:${config.PORT}`;
  return { id, origin: origin.replace(/\/$/, ''), name: config.WEBAUTHN_RP_NAME };
}

export function passkeyView(row: typeof passkeys.$inferSelect): TPasskey {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Whose passkeys and ceremonies: a customer's, or an operator's in the console (ADR 0033). The same tables
 * and the same WebAuthn checks serve both; a passkey of one kind never answers for the other.
 */
export type Subject = { kind: 'user'; id: number } | { kind: 'operator'; id: number };
export type SubjectKind = Subject['kind'];

/** The condition "this passkey belongs to the subject". */
export const ownedBy = (subject: Subject) =>
  subject.kind === 'user' ? eq(passkeys.userId, subject.id) : eq(passkeys.operatorId, subject.id);

export async function listOwnPasskeys(db: Executor, subject: Subject) {
  return db.select().from(passkeys).where(ownedBy(subject)).orderBy(asc(passkeys.id));
}

export async function listPasskeys(db: Db, userId: number) {
  return listOwnPasskeys(db, { kind: 'user', id: userId });
}

export async function hasPasskey(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .limit(1);
  return row !== undefined;
}

const expiry = (clock: Clock, minutes: number) => new Date(clock.now().getTime() + minutes * 60_000);

/** Challenges this long past their expiry are deleted, a bounded batch with each new one. */
const CHALLENGE_KEPT_MS = 60 * 60_000;
const CHALLENGE_SWEEP = 50;

export async function storeChallenge(
  deps: PasskeyDeps,
  values: {
    subject: SubjectKind;
    userId: number | null;
    operatorId?: number | null;
    purpose: 'register' | 'login' | 'step_up';
    challenge: string;
  } & Partial<{
    /** a customer's StepUpAction, or an operator's ConsoleStepUpAction (ADR 0049) */
    action: string;
    details: string;
  }>,
) {
  const now = deps.clock.now();
  await deps.db.insert(webauthnChallenges).values({
    ...values,
    createdAt: now,
    expiresAt: expiry(deps.clock, CHALLENGE_MINUTES),
  });
  // sign-in challenges can be asked for without an account: the table must not grow with them
  const before = new Date(now.getTime() - CHALLENGE_KEPT_MS);
  await deps.db
    .delete(webauthnChallenges)
    .where(
      inArray(
        webauthnChallenges.id,
        deps.db
          .select({ id: webauthnChallenges.id })
          .from(webauthnChallenges)
          .where(lt(webauthnChallenges.expiresAt, before))
          .limit(CHALLENGE_SWEEP),
      ),
    );
}

/**
 * Marks the challenge the browser signed as answered, once: a second answer (a replay), an expired or
 * unknown challenge, or one of another purpose or user is refused.
 */
export async function takeChallenge(
  deps: Pick<PasskeyDeps, 'db' | 'clock'>,
  clientDataJSON: string,
  purpose: 'register' | 'login' | 'step_up',
  owner: Subject | SubjectKind,
) {
  const kind = typeof owner === 'string' ? owner : owner.kind;
  const userId = typeof owner !== 'string' && owner.kind === 'user' ? owner.id : null;
  const operatorId = typeof owner !== 'string' && owner.kind === 'operator' ? owner.id : null;
  let challenge: string;
  try {
    const client = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown };
    // ours are base64url; anything else (a NUL decoded from the base64, a huge string) is not looked up
    if (typeof client.challenge !== 'string' || !/^[\w-]{16,128}$/.test(client.challenge)) {
      throw new Error('no challenge of ours');
    }
    challenge = client.challenge;
  } catch {
    throw new AppError('PASSKEY_VERIFICATION_FAILED');
  }
  const now = deps.clock.now();
  const [row] = await deps.db
    .update(webauthnChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        eq(webauthnChallenges.subject, kind),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        operatorId === null
          ? isNull(webauthnChallenges.operatorId)
          : eq(webauthnChallenges.operatorId, operatorId),
        isNull(webauthnChallenges.usedAt),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning();
  if (!row) throw new AppError('PASSKEY_CHALLENGE_INVALID');
  return row;
}

// ---------------------------------------------------------------- registration

export async function registrationOptions(
  deps: PasskeyDeps,
  userId: number,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED');
  return creationOptions(
    deps,
    { kind: 'user', id: userId },
    maskedPhone(user.phone),
    maskedPhone(user.phone),
  );
}

/** Creation options for a new passkey of a user or an operator, named as the passkey manager will list it. */
export async function creationOptions(
  deps: PasskeyDeps,
  subject: Subject,
  userName: string,
  displayName: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listOwnPasskeys(deps.db, subject);
  if (existing.length >= MAX_PASSKEYS) throw new AppError('PASSKEY_LIMIT', { max: MAX_PASSKEYS });
  const rp = relyingParty(deps.config);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    // the user handle names the account (kabuto-user-1, kabuto-operator-1), so that a discoverable
    // sign-in names its owner and a console passkey is never offered for the customers' site's account
    userID: isoBase64URL.toBuffer(isoBase64URL.fromUTF8String(`kabuto-${subject.kind}-${subject.id}`)),
    userName,
    userDisplayName: displayName,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await storeChallenge(deps, {
    subject: subject.kind,
    userId: subject.kind === 'user' ? subject.id : null,
    operatorId: subject.kind === 'operator' ? subject.id : null,
    purpose: 'register',
    challenge: options.challenge,
  });
  return options;
}

/** 090-****-5678: what a passkey manager lists, without the whole number. */
function maskedPhone(phone: string): string {
  return `${phone.slice(0, 3)}-****-${phone.slice(-4)}`;
}

export async function registerPasskey(
  deps: PasskeyDeps,
  userId: number,
  credential: RegistrationResponseJSON,
  name: string | undefined,
  locale: Locale,
): Promise<TPasskey> {
  const now = deps.clock.now();
  const outbox: EventOutbox = [];
  const row = await storeNewPasskey(
    deps,
    { kind: 'user', id: userId },
    credential,
    name,
    locale,
    async (tx, inserted) => {
      await notify(tx, outbox, userId, 'security.passkey_added', { name: inserted.name }, now);
    },
  );
  await publishOutbox(deps.realtime, outbox);
  await tellBySms(deps, userId, 'security.passkey_added', row.name, locale);
  return passkeyView(row);
}

/**
 * Verifies a registration against its challenge (of this subject, once) and stores the passkey, within the
 * limit; `then` runs in the same transaction (the user's notice, the operator's audit entry).
 */
export async function storeNewPasskey(
  deps: PasskeyDeps,
  subject: Subject,
  credential: RegistrationResponseJSON,
  name: string | undefined,
  locale: Locale,
  then: (tx: Executor, inserted: typeof passkeys.$inferSelect) => Promise<void>,
): Promise<typeof passkeys.$inferSelect> {
  const challenge = await takeChallenge(deps, credential.response.clientDataJSON, 'register', subject);
  const rp = relyingParty(deps.config);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: credential,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError('PASSKEY_VERIFICATION_FAILED');
  }
  if (!verified.verified) throw new AppError('PASSKEY_VERIFICATION_FAILED');
  const { credential: made } = verified.registrationInfo;
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    // the owner's row is locked so that two registrations at once cannot pass the limit together
    if (subject.kind === 'user') {
      await tx.execute(sql`select id from ${users} where id = ${subject.id} for update`);
    } else {
      await tx.execute(sql`select id from ${operators} where id = ${subject.id} for update`);
    }
    const [held] = await tx.select({ n: count() }).from(passkeys).where(ownedBy(subject));
    if ((held?.n ?? 0) >= MAX_PASSKEYS) throw new AppError('PASSKEY_LIMIT', { max: MAX_PASSKEYS });
    const [taken] = await tx
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.credentialId, made.id));
    if (taken) throw new AppError('PASSKEY_ALREADY_REGISTERED');
    const [inserted] = await tx
      .insert(passkeys)
      .values({
        userId: subject.kind === 'user' ? subject.id : null,
        operatorId: subject.kind === 'operator' ? subject.id : null,
        credentialId: made.id,
        publicKey: isoBase64URL.fromBuffer(made.publicKey),
        counter: made.counter,
        transports: made.transports ?? [],
        name: name ?? defaultName(held?.n ?? 0, locale),
        createdAt: now,
      })
      .returning();
    if (!inserted) throw new Error('the passkey was not written');
    await then(tx, inserted);
    return inserted;
  });
}

function defaultName(held: number, locale: Locale): string {
  const base = {
    ja: 'パスキー',
    'zh-Hans': '通行密钥',
    'zh-Hant': '密碼金鑰',
    en: 'Passkey',
    es: 'Llave',
    fr: 'Clé',
  }[locale];
  return `${base} ${held + 1}`;
}

async function tellBySms(
  deps: PasskeyDeps,
  userId: number,
  kind: 'security.passkey_added' | 'security.passkey_removed',
  name: string,
  locale: Locale,
) {
  const [user] = await deps.db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
  if (!user) return;
  await deps.sms.send({
    phone: user.phone,
    purpose: kind,
    text: interpolate(MESSAGES[locale].messageKinds[kind], { name }),
    sentAt: deps.clock.now().toISOString(),
  });
}

export async function renamePasskey(deps: PasskeyDeps, userId: number, id: number, name: string) {
  const [row] = await deps.db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  if (!row) throw new AppError('PASSKEY_NOT_FOUND');
  return passkeyView(row);
}

/** Removes a passkey; the caller has checked the step-up (a fresh assertion naming this passkey). */
export async function removePasskey(deps: PasskeyDeps, userId: number, id: number, locale: Locale) {
  const now = deps.clock.now();
  const outbox: EventOutbox = [];
  const row = await deps.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning();
    if (!deleted) throw new AppError('PASSKEY_NOT_FOUND');
    await notify(tx, outbox, userId, 'security.passkey_removed', { name: deleted.name }, now);
    return deleted;
  });
  await publishOutbox(deps.realtime, outbox);
  await tellBySms(deps, userId, 'security.passkey_removed', row.name, locale);
}

// ---------------------------------------------------------------- assertions (sign-in and step-up)

/** Checks an assertion against the stored passkey it names, and records its use. */
export async function verifyAssertion(
  deps: PasskeyDeps,
  credential: AuthenticationResponseJSON,
  expectedChallenge: string,
  owner: Subject | SubjectKind,
) {
  const [key] = await deps.db
    .select()
    .from(passkeys)
    .where(eq(passkeys.credentialId, credential.id))
    .limit(1);
  const named = typeof owner !== 'string';
  const kind = named ? owner.kind : owner;
  // a customer's passkey never signs in to the console, nor an operator's to the customers' site
  const ownerId = key ? (kind === 'user' ? key.userId : key.operatorId) : null;
  if (!key || ownerId === null || (named && ownerId !== owner.id)) {
    throw new AppError(named ? 'PASSKEY_VERIFICATION_FAILED' : 'PASSKEY_UNKNOWN');
  }
  const rp = relyingParty(deps.config);
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: key.credentialId,
        publicKey: isoBase64URL.toBuffer(key.publicKey),
        counter: key.counter,
        transports: key.transports,
      },
    });
  } catch {
    throw new AppError('PASSKEY_VERIFICATION_FAILED');
  }
  if (!result.verified) throw new AppError('PASSKEY_VERIFICATION_FAILED');
  await deps.db
    .update(passkeys)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: deps.clock.now() })
    .where(eq(passkeys.id, key.id));
  return { ...key, ownerId };
}

/** Options for a discoverable sign-in: no account named, any passkey of this site may answer. */
export async function loginOptions(
  deps: PasskeyDeps,
  subject: SubjectKind = 'user',
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).id,
    userVerification: 'required',
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await storeChallenge(deps, { subject, userId: null, purpose: 'login', challenge: options.challenge });
  return options;
}

/** The user (or operator) a passkey sign-in proves; the caller opens the session as password sign-in does. */
export async function verifyLogin(
  deps: PasskeyDeps,
  credential: AuthenticationResponseJSON,
  subject: SubjectKind = 'user',
): Promise<number> {
  const challenge = await takeChallenge(deps, credential.response.clientDataJSON, 'login', subject);
  const key = await verifyAssertion(deps, credential, challenge.challenge, subject);
  return key.ownerId;
}

/** Options for a step-up: only the user's own passkeys, bound to one action and its details. */
export async function stepUpOptions(
  deps: PasskeyDeps,
  userId: number,
  request: z.output<typeof ZStepUpRequest>,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const own = await listPasskeys(deps.db, userId);
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
    subject: 'user',
    userId,
    purpose: 'step_up',
    challenge: options.challenge,
    action: request.action,
    details: stepUpDetails(request),
  });
  return options;
}

/**
 * Verifies a step-up assertion of a customer's or an operator's passkey and grants the token for the
 * challenge's action (stored hashed on the challenge's row), valid STEP_UP_MINUTES. The caller narrows the
 * action to its own kind.
 */
export async function grantStepUp(
  deps: PasskeyDeps,
  subject: Subject,
  credential: AuthenticationResponseJSON,
): Promise<{ step_up_token: string; action: string | null; expires_at: string }> {
  const challenge = await takeChallenge(deps, credential.response.clientDataJSON, 'step_up', subject);
  await verifyAssertion(deps, credential, challenge.challenge, subject);
  const token = newToken();
  const expiresAt = expiry(deps.clock, STEP_UP_MINUTES);
  await deps.db
    .update(webauthnChallenges)
    .set({ tokenHash: sha256Hex(token), expiresAt })
    .where(eq(webauthnChallenges.id, challenge.id));
  return { step_up_token: token, action: challenge.action, expires_at: expiresAt.toISOString() };
}

/** Verifies a customer's step-up assertion; answers a token for that one action, valid for minutes. */
export async function verifyStepUp(
  deps: PasskeyDeps,
  userId: number,
  credential: AuthenticationResponseJSON,
): Promise<{ step_up_token: string; action: StepUpAction; expires_at: string }> {
  const granted = await grantStepUp(deps, { kind: 'user', id: userId }, credential);
  return { ...granted, action: granted.action as StepUpAction };
}

/**
 * The gate of every step-up action: when the user has a passkey, the request must carry a step-up token
 * given for this user, this action and these details, unspent and unexpired; it is spent here, once.
 * A user without a passkey steps up by SMS (sms-step-up.ts): that token is checked the same way, and is
 * required just the same: a request with no token is refused for every user (STEP_UP_REQUIRED, or
 * STEP_UP_SMS_REQUIRED to a user without a passkey), so a stolen
 * session plus a guessed transaction password moves nothing without the phone or the passkey.
 * Run it inside the action's transaction, so that a failed action leaves the token unspent, and an
 * idempotent replay (which answers the first result without running the action) does not need a new one.
 */
export async function requireStepUp(
  deps: { db: Executor; clock: Clock },
  userId: number,
  request: z.output<typeof ZStepUpRequest>,
  token: string | undefined,
): Promise<void> {
  if (token === undefined) {
    throw new AppError((await hasPasskey(deps.db, userId)) ? 'STEP_UP_REQUIRED' : 'STEP_UP_SMS_REQUIRED');
  }
  const now = deps.clock.now();
  const [spent] = await deps.db
    .update(webauthnChallenges)
    .set({ consumedAt: now })
    .where(
      and(
        eq(webauthnChallenges.tokenHash, sha256Hex(token)),
        eq(webauthnChallenges.userId, userId),
        eq(webauthnChallenges.purpose, 'step_up'),
        eq(webauthnChallenges.action, request.action),
        eq(webauthnChallenges.details, stepUpDetails(request)),
        isNotNull(webauthnChallenges.usedAt),
        isNull(webauthnChallenges.consumedAt),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ id: webauthnChallenges.id });
  if (!spent) throw new AppError('STEP_UP_INVALID');
}
