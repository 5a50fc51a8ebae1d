import { and, eq } from 'drizzle-orm';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Locale, TPasskey } from '@kabuto/contract';
import { operators, passkeys } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import {
  creationOptions,
  listOwnPasskeys,
  loginOptions,
  passkeyView,
  storeNewPasskey,
  verifyLogin,
  type PasskeyDeps,
} from '../passkeys/passkeys.js';
import type { SessionPolicy } from '../auth/sessions.js';
import { audit } from './audit.js';
import { requireOperatorStepUp } from './operator-step-up.js';
import { openOperatorSession, type OperatorPrincipal, type OperatorRow } from './operators.js';

/**
 * Operators' passkeys for the console (issue 22, ADR 0033): the customers' WebAuthn code and tables with an
 * operator as the subject. Every registration, rename, removal and passkey sign-in is audited. Adding and
 * removing a passkey need a fresh step-up (operator-step-up.ts, ADR 0049), spent in the action's transaction.
 */

const subjectOf = (operator: OperatorPrincipal) => ({ kind: 'operator' as const, id: operator.id });

export async function listOperatorPasskeys(
  deps: PasskeyDeps,
  operator: OperatorPrincipal,
): Promise<TPasskey[]> {
  return (await listOwnPasskeys(deps.db, subjectOf(operator))).map(passkeyView);
}

export async function operatorRegistrationOptions(deps: PasskeyDeps, operator: OperatorPrincipal) {
  // the passkey manager lists it as "admin (Kabuto console)": the operator's user name, not the password's
  return creationOptions(deps, subjectOf(operator), operator.username, `${operator.displayName} (console)`);
}

export async function registerOperatorPasskey(
  deps: PasskeyDeps,
  operator: OperatorPrincipal,
  credential: RegistrationResponseJSON,
  name: string | undefined,
  locale: Locale,
  stepUpToken: string | undefined,
): Promise<TPasskey> {
  // refused before the browser's credential is looked at: without a step-up nothing is verified or spent
  if (stepUpToken === undefined) throw new AppError('OPERATOR_STEP_UP_REQUIRED');
  const row = await storeNewPasskey(
    deps,
    subjectOf(operator),
    credential,
    name,
    locale,
    async (tx, inserted) => {
      const steppedUpBy = await requireOperatorStepUp(
        { db: tx, clock: deps.clock },
        operator.id,
        { action: 'add_passkey' },
        stepUpToken,
      );
      await audit(tx, {
        operatorId: operator.id,
        action: 'operator.passkey_add',
        targetType: 'passkey',
        targetId: inserted.id,
        after: { name: inserted.name, operator_id: operator.id, step_up: steppedUpBy },
        at: deps.clock.now(),
      });
    },
  );
  return passkeyView(row);
}

export async function renameOperatorPasskey(
  deps: PasskeyDeps,
  operator: OperatorPrincipal,
  id: number,
  name: string,
): Promise<TPasskey> {
  return deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: passkeys.name })
      .from(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.operatorId, operator.id)));
    if (!before) throw new AppError('PASSKEY_NOT_FOUND');
    const [row] = await tx
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.id, id), eq(passkeys.operatorId, operator.id)))
      .returning();
    if (!row) throw new AppError('PASSKEY_NOT_FOUND');
    await audit(tx, {
      operatorId: operator.id,
      action: 'operator.passkey_rename',
      targetType: 'passkey',
      targetId: id,
      before,
      after: { name },
      at: deps.clock.now(),
    });
    return passkeyView(row);
  });
}

/**
 * Removes one of the operator's passkeys, after a step-up naming it. An administrator keeps at least one:
 * otherwise a stolen session could take the passkey away and let the password alone in again.
 */
export async function removeOperatorPasskey(
  deps: PasskeyDeps,
  operator: OperatorPrincipal,
  id: number,
  stepUpToken: string | undefined,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // the operator's row is locked so that two removals at once cannot both leave the other
    const [me] = await tx.select().from(operators).where(eq(operators.id, operator.id)).for('update');
    const own = await listOwnPasskeys(tx, subjectOf(operator));
    const target = own.find((p) => p.id === id);
    if (!me || !target) throw new AppError('PASSKEY_NOT_FOUND');
    if (me.role === 'administrator' && own.length === 1) throw new AppError('OPERATOR_PASSKEY_LAST');
    const steppedUpBy = await requireOperatorStepUp(
      { db: tx, clock: deps.clock },
      operator.id,
      { action: 'remove_passkey', passkey_id: id },
      stepUpToken,
    );
    await tx.delete(passkeys).where(eq(passkeys.id, id));
    await audit(tx, {
      operatorId: operator.id,
      action: 'operator.passkey_remove',
      targetType: 'passkey',
      targetId: id,
      before: { name: target.name, operator_id: operator.id },
      after: { step_up: steppedUpBy },
      at: deps.clock.now(),
    });
  });
}

export const operatorLoginOptions = (deps: PasskeyDeps) => loginOptions(deps, 'operator');

/** A discoverable passkey sign-in to the console: the same session, and the same answer, as the password's. */
export async function operatorPasskeyLogin(
  deps: PasskeyDeps & { consoleSessionPolicy: SessionPolicy },
  credential: AuthenticationResponseJSON,
): Promise<{ token: string; expiresAt: Date; operator: OperatorRow }> {
  const operatorId = await verifyLogin(deps, credential, 'operator');
  const [row] = await deps.db.select().from(operators).where(eq(operators.id, operatorId));
  // a deactivated operator's passkey opens nothing (no session, no audit entry of a sign-in)
  if (!row || !row.active) throw new AppError('PASSKEY_UNKNOWN');
  const session = await openOperatorSession(
    { db: deps.db, clock: deps.clock, policy: deps.consoleSessionPolicy },
    row.id,
    'operator.login_passkey',
    { passkey: credential.id },
  );
  return { ...session, operator: row };
}
