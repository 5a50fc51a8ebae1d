import type { Executor } from '../../db/types.js';
import { auditLog } from '../../db/schema.js';

/** One operator action for the append-only audit log (the database refuses updates and deletes). */
export interface AuditEntry {
  /** null for the system itself (first start, seeding) */
  operatorId: number | null;
  /** dotted verb, e.g. `identity.approve`, `settings.update`, `operator.login_failed` */
  action: string;
  targetType: string;
  targetId?: string | number | null;
  /** the user the target belongs to, so that the user's audit trail finds it */
  userId?: number | null;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
  at: Date;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * Writes the entry in the caller's transaction, so the action and its record commit together; answers the
 * entry's id (a settings proposal is known by the id of the entry that recorded it, ADR 0034).
 */
export async function audit(db: Executor, entry: AuditEntry): Promise<number> {
  const [row] = await db
    .insert(auditLog)
    .values({
      operatorId: entry.operatorId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      userId: entry.userId ?? null,
      reason: entry.reason ?? null,
      before: json(entry.before),
      after: json(entry.after),
      createdAt: entry.at,
    })
    .returning({ id: auditLog.id });
  if (!row) throw new Error('the audit entry was not written');
  return row.id;
}
