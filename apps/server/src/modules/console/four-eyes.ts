import { inArray } from 'drizzle-orm';
import {
  FOUR_EYES_KEYS,
  ZFirmDepositAccount,
  ZWithdrawalThreshold,
  type FourEyesKey,
  type SettingKey,
  type TSettingProposal,
  type TSettings,
} from '@kabuto/contract';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Executor, Tx } from '../../db/types.js';
import { operators, settings } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { loadSettings, storeSetting } from '../settings/settings.js';
import { audit } from './audit.js';
import type { AdminDeps } from './operators.js';

/**
 * Four-eyes on the settings that could defeat four-eyes (ADR 0034): the second-approval threshold of
 * withdrawals and the firm's deposit bank account. Saving a change to them does not make it take effect: it
 * stores a proposal (one per part, in the settings table under `proposal:<part>`), which a different
 * administrator confirms, or either cancels. Every step is audited; the proposal's id is the id of the audit
 * entry that recorded it. A proposal not confirmed within PROPOSAL_EXPIRY_HOURS expires (ADR 0049): it can
 * then only be withdrawn, and a new proposal of the same part replaces it.
 */

/** How long a proposal may wait for the second administrator (ADR 0049). */
export const PROPOSAL_EXPIRY_HOURS = 24;
const PROPOSAL_EXPIRY_MS = PROPOSAL_EXPIRY_HOURS * 60 * 60_000;

/** When a proposal made at `proposedAt` expires: from that instant on it can no longer be confirmed. */
export function proposalExpiresAt(proposedAt: string): Date {
  return new Date(new Date(proposedAt).getTime() + PROPOSAL_EXPIRY_MS);
}
const isExpired = (stored: { proposed_at: string }, now: Date) =>
  proposalExpiresAt(stored.proposed_at).getTime() <= now.getTime();

/** The fields of each part that need a second administrator; the rest of the part takes effect at once. */
const GUARDED = {
  withdrawal: Object.keys(ZWithdrawalThreshold.shape),
  deposit: Object.keys(ZFirmDepositAccount.shape),
} as const satisfies Record<FourEyesKey, readonly string[]>;

const PROPOSED = { withdrawal: ZWithdrawalThreshold, deposit: ZFirmDepositAccount } as const;

/** What is stored for a pending proposal. */
const ZStored = z.object({
  id: z.number().int(),
  proposed: z.record(z.string(), z.unknown()),
  proposed_by: z.number().int(),
  proposed_at: z.string(),
});
type Stored = z.infer<typeof ZStored>;

const rowKey = (key: FourEyesKey) => `proposal:${key}`;
const ROW_KEYS = FOUR_EYES_KEYS.map(rowKey);

export function isFourEyesKey(key: SettingKey): key is FourEyesKey {
  return (FOUR_EYES_KEYS as readonly string[]).includes(key);
}

function pick(part: object, fields: readonly string[]): Record<string, unknown> {
  const source = part as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, source[f] ?? null]));
}

/** The guarded fields of a part, in a fixed order (so that two of them compare as JSON). */
export function guardedOf(key: FourEyesKey, part: object): Record<string, unknown> {
  return pick(part, GUARDED[key]);
}

/**
 * Splits a saved part into what takes effect now (the part with its guarded fields as they are in force)
 * and the guarded fields as proposed, or null when they do not change.
 */
export function splitFourEyes<T extends object>(
  key: FourEyesKey,
  current: T,
  value: T,
): { effective: T; proposed: Record<string, unknown> | null } {
  const inForce = guardedOf(key, current);
  const proposed = guardedOf(key, value);
  // the same part with some fields taken from the part in force: still a T
  const effective: T = { ...value, ...inForce };
  return { effective, proposed: JSON.stringify(inForce) === JSON.stringify(proposed) ? null : proposed };
}

/**
 * Records a proposal; SETTING_PROPOSAL_PENDING when one for this part already waits. An expired one does
 * not wait: it is removed (audited `settings.expire`) and the new one takes its place.
 */
export async function propose(
  tx: Tx,
  deps: AdminDeps,
  key: FourEyesKey,
  inForce: Record<string, unknown>,
  proposed: Record<string, unknown>,
): Promise<number> {
  const at = deps.clock.now();
  const stale = (await pendingRows(tx, true)).find((p) => p.key === key && isExpired(p.stored, at));
  if (stale) {
    await removeProposal(tx, key);
    await audit(tx, {
      operatorId: deps.operator.id,
      action: 'settings.expire',
      targetType: 'settings',
      targetId: key,
      reason: `proposal ${String(stale.stored.id)} by operator ${String(stale.stored.proposed_by)} expired at ${proposalExpiresAt(stale.stored.proposed_at).toISOString()}`,
      before: stale.stored.proposed,
      at,
    });
  }
  const id = await audit(tx, {
    operatorId: deps.operator.id,
    action: 'settings.propose',
    targetType: 'settings',
    targetId: key,
    before: inForce,
    after: proposed,
    at,
  });
  const stored: Stored = { id, proposed, proposed_by: deps.operator.id, proposed_at: at.toISOString() };
  const inserted = await tx
    .insert(settings)
    .values({ key: rowKey(key), value: JSON.stringify(stored), updatedBy: deps.operator.id, updatedAt: at })
    .onConflictDoNothing()
    .returning({ key: settings.key });
  if (inserted.length === 0) throw new AppError('SETTING_PROPOSAL_PENDING');
  return id;
}

interface Pending {
  key: FourEyesKey;
  stored: Stored;
}

async function pendingRows(db: Executor, lock: boolean): Promise<Pending[]> {
  const query = db.select().from(settings).where(inArray(settings.key, ROW_KEYS));
  const rows = lock ? await query.for('update') : await query;
  const out: Pending[] = [];
  for (const key of FOUR_EYES_KEYS) {
    const row = rows.find((r) => r.key === rowKey(key));
    if (!row) continue;
    const parsed = ZStored.safeParse(JSON.parse(row.value));
    if (parsed.success && PROPOSED[key].safeParse(parsed.data.proposed).success) {
      out.push({ key, stored: parsed.data });
    }
  }
  return out;
}

/** The proposals waiting for a second administrator, with who proposed them and whether they expired. */
export async function listProposals(db: Executor, now: Date): Promise<TSettingProposal[]> {
  const pending = await pendingRows(db, false);
  if (pending.length === 0) return [];
  const names = await db
    .select({ id: operators.id, name: operators.displayName })
    .from(operators)
    .where(
      inArray(
        operators.id,
        pending.map((p) => p.stored.proposed_by),
      ),
    );
  return pending.map(({ key, stored }) => {
    const common = {
      id: stored.id,
      proposed_by: {
        id: stored.proposed_by,
        display_name: names.find((n) => n.id === stored.proposed_by)?.name ?? '',
      },
      proposed_at: stored.proposed_at,
      expires_at: proposalExpiresAt(stored.proposed_at).toISOString(),
      expired: isExpired(stored, now),
    };
    return key === 'withdrawal'
      ? { ...common, key, proposed: ZWithdrawalThreshold.parse(stored.proposed) }
      : { ...common, key, proposed: ZFirmDepositAccount.parse(stored.proposed) };
  });
}

async function lockedProposal(tx: Tx, id: number): Promise<Pending> {
  const found = (await pendingRows(tx, true)).find((p) => p.stored.id === id);
  if (!found) throw new AppError('SETTING_PROPOSAL_NOT_FOUND');
  return found;
}

async function removeProposal(tx: Tx, key: FourEyesKey) {
  await tx.delete(settings).where(inArray(settings.key, [rowKey(key)]));
}

/**
 * A second administrator confirms a proposal: its fields take effect over the part as it is now in force
 * (changes to the other fields meanwhile are kept). The proposer cannot confirm (SETTING_PROPOSAL_OWN).
 * Answers the part before and after, so that the caller can act on the change (the deposit notice).
 */
export async function confirmProposal(
  tx: Tx,
  config: Config,
  deps: AdminDeps,
  id: number,
): Promise<{ key: FourEyesKey; before: TSettings[FourEyesKey]; after: TSettings[FourEyesKey] }> {
  const { key, stored } = await lockedProposal(tx, id);
  if (stored.proposed_by === deps.operator.id) throw new AppError('SETTING_PROPOSAL_OWN');
  const at = deps.clock.now();
  if (isExpired(stored, at)) throw new AppError('SETTING_PROPOSAL_EXPIRED');
  const current = await loadSettings(tx, config);
  const next = { ...current[key], ...PROPOSED[key].parse(stored.proposed) };
  const { before, after } = await storeSetting(tx, config, key, next, deps.operator.id, at);
  await removeProposal(tx, key);
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'settings.confirm',
    targetType: 'settings',
    targetId: key,
    reason: `proposal ${String(id)} by operator ${String(stored.proposed_by)}`,
    before,
    after,
    at,
  });
  return { key, before, after };
}

/** Either administrator (the proposer or another) cancels a proposal, expired or not; nothing takes effect. */
export async function cancelProposal(tx: Tx, deps: AdminDeps, id: number): Promise<void> {
  const { key, stored } = await lockedProposal(tx, id);
  await removeProposal(tx, key);
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'settings.cancel',
    targetType: 'settings',
    targetId: key,
    reason: `proposal ${String(id)} by operator ${String(stored.proposed_by)}`,
    before: stored.proposed,
    at: deps.clock.now(),
  });
}
