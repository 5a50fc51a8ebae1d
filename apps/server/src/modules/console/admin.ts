import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { MESSAGE_KINDS, SettingKey, TInvitationCode, TOperatorRole, TSettings } from '@kabuto/contract';
import type { Config } from '../../config.js';
import type { Executor, Tx } from '../../db/types.js';
import { invitationCodes, messages, operatorSessions, operators, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { hashPassword } from '../../lib/passwords.js';
import { loadSettings, storeSetting } from '../settings/settings.js';
import { audit } from './audit.js';
import { confirmProposal, guardedOf, isFourEyesKey, propose, splitFourEyes } from './four-eyes.js';
import { oneTimePassword, type AdminDeps, type OperatorRow } from './operators.js';

/**
 * What administrators change in the console: published settings, invitation codes and operator accounts.
 * Each change runs in the caller's transaction together with its audit entry (before and after); a call
 * that changes nothing writes nothing. None of it touches a balance, a price, a fill or a profit.
 */
export type { AdminDeps } from './operators.js';

// ---------------------------------------------------------------- settings

/**
 * Replaces one part of the settings; answers all of them as they now are. The fields that could defeat
 * four-eyes (the withdrawals' second-approval threshold, the deposit bank account: ADR 0034) do not change
 * here: a new value for them becomes a proposal that a different administrator confirms (confirmSetting),
 * while the rest of the part takes effect at once.
 */
export async function updateSetting<K extends SettingKey>(
  tx: Tx,
  config: Config,
  deps: AdminDeps,
  key: K,
  value: TSettings[K],
): Promise<TSettings> {
  const current = await loadSettings(tx, config);
  let effective: TSettings[K] = value;
  if (isFourEyesKey(key)) {
    const split = splitFourEyes(key, current[key], value);
    effective = split.effective;
    if (split.proposed !== null) {
      await propose(tx, deps, key, guardedOf(key, current[key]), split.proposed);
    }
  }
  if (JSON.stringify(current[key]) === JSON.stringify(effective)) return current;
  const at = deps.clock.now();
  const { before, after } = await storeSetting(tx, config, key, effective, deps.operator.id, at);
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'settings.update',
    targetType: 'settings',
    targetId: key,
    before,
    after,
    at,
  });
  return loadSettings(tx, config);
}

/**
 * A second administrator confirms a pending four-eyes proposal (ADR 0034); a changed deposit account is told
 * to every customer now, when it takes effect. Answers all the settings as they now are.
 */
export async function confirmSetting(
  tx: Tx,
  config: Config,
  deps: AdminDeps,
  id: number,
): Promise<TSettings> {
  const { key, before, after } = await confirmProposal(tx, config, deps, id);
  if (key === 'deposit') {
    const was = before as TSettings['deposit'];
    const now = after as TSettings['deposit'];
    if (depositAccountChanged(was, now)) await tellEveryCustomerOfDepositAccount(tx, now, deps.clock.now());
  }
  return loadSettings(tx, config);
}

/** The parts of the deposit settings that say where customers send money (the URL is not one of them). */
function depositAccountChanged(before: TSettings['deposit'], after: TSettings['deposit']): boolean {
  const { url: _beforeUrl, ...was } = before;
  const { url: _afterUrl, ...now } = after;
  return JSON.stringify(was) !== JSON.stringify(now);
}

/**
 * Every customer is told, in a message in their language, that the firm's deposit account changed and where
 * it now is (ADR 0030): a changed account is what a fraudster or a rogue administrator would set, and the
 * customers are the ones who would send money to it. One statement, however many customers.
 */
async function tellEveryCustomerOfDepositAccount(tx: Tx, deposit: TSettings['deposit'], at: Date) {
  const params = JSON.stringify({ bank_name: deposit.bank_name, branch_name: deposit.branch_name });
  await tx.execute(
    sql`insert into ${messages} (user_id, kind, params, created_at)
      select ${users.id}, ${DEPOSIT_ACCOUNT_CHANGED}, ${params}, ${at.toISOString()}::timestamptz from ${users}`,
  );
}

export const DEPOSIT_ACCOUNT_CHANGED =
  'security.deposit_account_changed' satisfies (typeof MESSAGE_KINDS)[number];

// ---------------------------------------------------------------- invitation codes

type InvitationRow = typeof invitationCodes.$inferSelect;

export function invitationCodeView(row: InvitationRow): TInvitationCode {
  return {
    code: row.code,
    kind: row.kind,
    owner_user_id: row.ownerUserId,
    active: row.active,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}

/** Every invitation code (campaign codes and users' own codes), newest first. */
export async function listInvitationCodes(
  db: Executor,
  page: { limit: number; offset: number },
): Promise<{ total: number; items: TInvitationCode[] }> {
  const [rows, [n]] = await Promise.all([
    db
      .select()
      .from(invitationCodes)
      .orderBy(desc(invitationCodes.createdAt), asc(invitationCodes.code))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(invitationCodes),
  ]);
  return { total: n?.n ?? 0, items: rows.map(invitationCodeView) };
}

/** A new campaign code (registration accepts it while it is active); INVITE_CODE_TAKEN when it exists. */
export async function createInvitationCode(
  tx: Tx,
  deps: AdminDeps,
  input: { code: string; note?: string | undefined },
): Promise<TInvitationCode> {
  const at = deps.clock.now();
  const note = input.note === undefined || input.note === '' ? null : input.note;
  const [row] = await tx
    .insert(invitationCodes)
    .values({ code: input.code, kind: 'campaign', ownerUserId: null, active: true, note, createdAt: at })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError('INVITE_CODE_TAKEN');
  const view = invitationCodeView(row);
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'invitation_code.create',
    targetType: 'invitation_code',
    targetId: row.code,
    after: view,
    at,
  });
  return view;
}

/** Registration stops accepting the code (a campaign code or a user's own); there is no reactivation. */
export async function deactivateInvitationCode(
  tx: Tx,
  deps: AdminDeps,
  code: string,
): Promise<TInvitationCode> {
  const [row] = await tx.select().from(invitationCodes).where(eq(invitationCodes.code, code)).for('update');
  if (!row) throw new AppError('NOT_FOUND');
  if (!row.active) return invitationCodeView(row);
  const [updated] = await tx
    .update(invitationCodes)
    .set({ active: false })
    .where(eq(invitationCodes.code, code))
    .returning();
  if (!updated) throw new AppError('NOT_FOUND');
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'invitation_code.deactivate',
    targetType: 'invitation_code',
    targetId: code,
    userId: row.ownerUserId,
    before: { active: true },
    after: { active: false },
    at: deps.clock.now(),
  });
  return invitationCodeView(updated);
}

// ---------------------------------------------------------------- operators

export async function listOperators(db: Executor): Promise<OperatorRow[]> {
  return db.select().from(operators).orderBy(asc(operators.id));
}

/**
 * A new operator with a one-time password (answered once, never stored in clear or audited) that must be
 * changed at the first sign-in; OPERATOR_NAME_TAKEN when the user name exists (also as an inactive one).
 */
export async function createOperator(
  tx: Tx,
  deps: AdminDeps,
  input: { username: string; display_name: string; role: TOperatorRole },
): Promise<{ operator: OperatorRow; oneTimePassword: string }> {
  const at = deps.clock.now();
  const password = oneTimePassword();
  const [row] = await tx
    .insert(operators)
    .values({
      username: input.username.toLowerCase(),
      displayName: input.display_name,
      passwordHash: await hashPassword(password),
      role: input.role,
      mustChangePassword: true,
      createdAt: at,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError('OPERATOR_NAME_TAKEN');
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'operator.create',
    targetType: 'operator',
    targetId: row.id,
    after: { username: row.username, display_name: row.displayName, role: row.role },
    at,
  });
  return { operator: row, oneTimePassword: password };
}

/**
 * Deactivates an operator and ends all its sessions. An administrator cannot deactivate themselves, and
 * the last active administrator stays: the active administrators are locked first, so that two
 * administrators deactivating each other at once cannot both succeed.
 */
export async function deactivateOperator(tx: Tx, deps: AdminDeps, id: number): Promise<OperatorRow> {
  if (id === deps.operator.id) throw new AppError('OPERATOR_SELF_DEACTIVATE');
  const admins = await tx
    .select({ id: operators.id })
    .from(operators)
    .where(and(eq(operators.role, 'administrator'), eq(operators.active, true)))
    .orderBy(asc(operators.id))
    .for('update');
  const [row] = await tx.select().from(operators).where(eq(operators.id, id)).for('update');
  if (!row) throw new AppError('NOT_FOUND');
  if (!row.active) return row;
  if (row.role === 'administrator' && admins.filter((a) => a.id !== id).length === 0) {
    throw new AppError('OPERATOR_LAST_ADMIN');
  }
  const at = deps.clock.now();
  const [updated] = await tx.update(operators).set({ active: false }).where(eq(operators.id, id)).returning();
  const revoked = await tx
    .update(operatorSessions)
    .set({ revokedAt: at })
    .where(and(eq(operatorSessions.operatorId, id), isNull(operatorSessions.revokedAt)))
    .returning({ id: operatorSessions.id });
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'operator.deactivate',
    targetType: 'operator',
    targetId: id,
    before: { active: true },
    after: { active: false, sessions_revoked: revoked.length },
    at,
  });
  if (!updated) throw new AppError('NOT_FOUND');
  return updated;
}

/** Lifts a lock after repeated failed sign-ins and clears the failure count. */
export async function unlockOperator(tx: Tx, deps: AdminDeps, id: number): Promise<OperatorRow> {
  const [row] = await tx.select().from(operators).where(eq(operators.id, id)).for('update');
  if (!row) throw new AppError('NOT_FOUND');
  if (row.lockedUntil === null && row.failedLogins === 0) return row;
  const [updated] = await tx
    .update(operators)
    .set({ lockedUntil: null, failedLogins: 0 })
    .where(eq(operators.id, id))
    .returning();
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'operator.unlock',
    targetType: 'operator',
    targetId: id,
    before: { locked_until: row.lockedUntil?.toISOString() ?? null, failed_logins: row.failedLogins },
    after: { locked_until: null, failed_logins: 0 },
    at: deps.clock.now(),
  });
  if (!updated) throw new AppError('NOT_FOUND');
  return updated;
}
