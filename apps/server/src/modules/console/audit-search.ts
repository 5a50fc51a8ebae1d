import { and, count, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { TAuditEntry } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { auditLog, operators } from '../../db/schema.js';
import { tokyoInstant } from '../../lib/tokyo-time.js';

export interface AuditQuery {
  operator_id?: number | undefined;
  /** an action (`settings.update`) or a prefix ending at a dot boundary (`settings`, `operator`) */
  action?: string | undefined;
  target_type?: string | undefined;
  target_id?: string | undefined;
  user_id?: number | undefined;
  /** Tokyo dates, inclusive */
  from?: string | undefined;
  to?: string | undefined;
  limit: number;
  offset: number;
}

/** LIKE's default escape character in PostgreSQL is the backslash. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The audit log, newest first, filtered; each entry with its operator's user name (null: the system). */
export async function searchAudit(
  db: Executor,
  q: AuditQuery,
): Promise<{ total: number; items: TAuditEntry[] }> {
  const t = auditLog;
  const action = q.action?.trim();
  const conditions: (SQL | undefined)[] = [
    q.operator_id === undefined ? undefined : eq(t.operatorId, q.operator_id),
    action ? or(eq(t.action, action), sql`${t.action} like ${`${escapeLike(action)}.%`}`) : undefined,
    q.target_type ? eq(t.targetType, q.target_type.trim()) : undefined,
    q.target_id ? eq(t.targetId, q.target_id.trim()) : undefined,
    q.user_id === undefined ? undefined : eq(t.userId, q.user_id),
    q.from ? gte(t.createdAt, tokyoInstant(q.from, 0)) : undefined,
    q.to ? lt(t.createdAt, tokyoInstant(q.to, 24 * 60)) : undefined,
  ];
  const where = and(...conditions);
  const [rows, [n]] = await Promise.all([
    db
      .select({ row: t, operator: operators.username })
      .from(t)
      .leftJoin(operators, eq(operators.id, t.operatorId))
      .where(where)
      .orderBy(desc(t.id))
      .limit(q.limit)
      .offset(q.offset),
    db.select({ n: count() }).from(t).where(where),
  ]);
  return {
    total: n?.n ?? 0,
    items: rows.map(({ row, operator }) => ({
      id: row.id,
      operator_id: row.operatorId,
      operator,
      action: row.action,
      target_type: row.targetType,
      target_id: row.targetId,
      user_id: row.userId,
      reason: row.reason,
      before: parsed(row.before),
      after: parsed(row.after),
      at: row.createdAt.toISOString(),
    })),
  };
}
