import { and, desc, eq } from 'drizzle-orm';
import type { TAccountApplication, TIdentityApplication, TOpeningSettings } from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { identityVerifications, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { lockUser } from '../ledger/ledger.js';
import { applicationColumns, applicationView, maskedIdNumber } from '../opening/application.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import { ownUpload } from '../uploads/uploads.js';

export type IdentityRow = typeof identityVerifications.$inferSelect;

/** The user's newest submission, the one in force. */
export async function latestIdentity(db: Executor, userId: number): Promise<IdentityRow | undefined> {
  const [row] = await db
    .select()
    .from(identityVerifications)
    .where(eq(identityVerifications.userId, userId))
    .orderBy(desc(identityVerifications.id))
    .limit(1);
  return row;
}

export function identityView(row: IdentityRow | undefined): TIdentityApplication {
  if (!row) {
    return {
      status: 'unverified',
      full_name: null,
      id_number_masked: null,
      reason: null,
      submitted_at: null,
      reviewed_at: null,
      can_submit: true,
      application: null,
    };
  }
  return {
    status: row.status,
    full_name: row.fullName,
    id_number_masked: maskedIdNumber(row),
    application: applicationView(row),
    reason: row.status === 'rejected' ? row.reason : null,
    submitted_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    can_submit: row.status === 'rejected',
  };
}

/**
 * Files the account application (the real-name verification's full form since issue 23): allowed when
 * none is in force or the last was rejected. The My Number is stored encrypted with `myNumberKey`.
 */
export async function submitIdentity(
  tx: Tx,
  clock: Clock,
  userId: number,
  input: TAccountApplication,
  outbox: EventOutbox,
  opening: { myNumberKey: Buffer; settings: TOpeningSettings },
): Promise<IdentityRow> {
  await lockUser(tx, userId);
  const current = await latestIdentity(tx, userId);
  if (current?.status === 'passed') throw new AppError('IDENTITY_ALREADY_PASSED');
  if (current?.status === 'pending') throw new AppError('IDENTITY_PENDING');
  await ownUpload(tx, userId, input.front_upload_id, ['identity_front', 'identity_back']);
  if (input.back_upload_id !== '') {
    await ownUpload(tx, userId, input.back_upload_id, ['identity_front', 'identity_back']);
  }
  const now = clock.now();
  const columns = applicationColumns(input, opening.myNumberKey, opening.settings, tokyoParts(now).date);
  const [row] = await tx
    .insert(identityVerifications)
    .values({ userId, ...columns, createdAt: now })
    .returning();
  if (!row) throw new Error('identity submission was not written');
  await tx.update(users).set({ realNameStatus: 'pending' }).where(eq(users.id, userId));
  await notify(tx, outbox, userId, 'identity.submitted', {}, now);
  return row;
}

/** Trading, deposits, withdrawals and bank accounts need a passed verification; browsing does not. */
export async function requireVerified(db: Executor, userId: number): Promise<IdentityRow> {
  const [row] = await db
    .select()
    .from(identityVerifications)
    .where(and(eq(identityVerifications.userId, userId), eq(identityVerifications.status, 'passed')))
    .orderBy(desc(identityVerifications.id))
    .limit(1);
  if (!row) throw new AppError('IDENTITY_REQUIRED');
  return row;
}

/** Users known to have passed, per database: a passed verification is final, so this never goes stale. */
const verifiedUsers = new WeakMap<object, Set<number>>();

/** requireVerified without a query once a user is known to have passed (on the order path). */
export async function requireVerifiedCached(db: Executor, userId: number): Promise<void> {
  let known = verifiedUsers.get(db);
  if (known?.has(userId)) return;
  await requireVerified(db, userId);
  if (!known) {
    known = new Set();
    verifiedUsers.set(db, known);
  }
  known.add(userId);
}
