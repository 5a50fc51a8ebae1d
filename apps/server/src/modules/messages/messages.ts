import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import {
  MESSAGES,
  interpolate,
  type Locale,
  type Messages,
  type TMessage,
  type TUserEvent,
} from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { intArrayLiteral, textArrayLiteral } from '../../db/array-literal.js';
import { run, statement } from '../../db/statement.js';
import { messages, users } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { SmsSender } from '../../lib/sms.js';
import type { RealtimeHub } from '../../realtime/hub.js';

/** Events to push to users once the transaction that caused them has committed. */
export type EventOutbox = { userId: number; event: TUserEvent }[];

/**
 * Stores a message for the user (its text is the catalogue's `messageKinds.<kind>` in the reader's
 * language, filled from `params`) and queues its live event for after the commit.
 */
export async function notify(
  tx: Executor,
  outbox: EventOutbox,
  userId: number,
  kind: string,
  params: Record<string, unknown>,
  at: Date,
): Promise<void> {
  const [row] = await tx
    .insert(messages)
    .values({ userId, kind, params: JSON.stringify(params), createdAt: at })
    .returning({ id: messages.id });
  queueEvent(outbox, userId, kind, params, at, row?.id ?? null);
}

const insertMessages = statement<{ users: string; kinds: string; params: string; at: Date }, { id: number }>(
  'messages_insert_many',
  (p) => `insert into messages (user_id, kind, params, created_at)
    select m.user_id, m.kind, m.params, ${p('at')}::timestamptz
    from unnest(${p('users')}::int[], ${p('kinds')}::text[], ${p('params')}::text[]) with ordinality
      as m(user_id, kind, params, n)
    order by m.n
    returning id`,
);

/**
 * notify() for many messages (a daily job's batch): one statement per 2,000 messages (array literals,
 * whatever their number), events queued in order. The first statement is sent when this is called, so a
 * caller may send it behind its other statements and await them together. The ids come back in the insert's order: the rows are inserted in the order
 * of the select, and RETURNING answers them as they were inserted.
 */
export async function notifyMany(
  tx: Executor,
  outbox: EventOutbox,
  items: readonly { userId: number; kind: string; params: Record<string, unknown> }[],
  at: Date,
): Promise<void> {
  for (let start = 0; start < items.length; start += 2_000) {
    const batch = items.slice(start, start + 2_000);
    const rows = await run(tx, insertMessages, {
      users: intArrayLiteral(batch.map((m) => m.userId)),
      kinds: textArrayLiteral(batch.map((m) => m.kind)),
      params: textArrayLiteral(batch.map((m) => JSON.stringify(m.params))),
      at,
    });
    for (const [i, m] of batch.entries()) {
      queueEvent(outbox, m.userId, m.kind, m.params, at, rows[i]?.id ?? null);
    }
  }
}

/** The values of messageCte's parameters. */
export interface MessageParams extends Record<string, unknown> {
  messageId: number;
  messageUser: number;
  messageKind: string;
  messageParams: string;
  messageAt: Date;
}

/**
 * notify() for a caller that writes the message with its other changes in one statement
 * (src/db/statement.ts): the message's insert as a data-modifying CTE `message`, with an id drawn
 * beforehand (readLedger). Its values come from messageValues; queueEvent queues the event once the
 * statement has run.
 */
export function messageCte(p: (name: keyof MessageParams & string) => string): string {
  return `message as (
      insert into messages (id, user_id, kind, params, created_at) overriding system value
      values (${p('messageId')}::int, ${p('messageUser')}::int, ${p('messageKind')}::text,
        ${p('messageParams')}::text, ${p('messageAt')}::timestamptz)
    )`;
}

export function messageValues(
  id: number,
  userId: number,
  kind: string,
  params: Record<string, unknown>,
  at: Date,
): MessageParams {
  return {
    messageId: id,
    messageUser: userId,
    messageKind: kind,
    messageParams: JSON.stringify(params),
    messageAt: at,
  };
}

/** Queues a message's live event for after the commit (for a message written by a messageCte statement too). */
export function queueEvent(
  outbox: EventOutbox,
  userId: number,
  kind: string,
  params: Record<string, unknown>,
  at: Date,
  messageId: number | null,
): void {
  outbox.push({ userId, event: { kind, at: at.toISOString(), data: { ...params, message_id: messageId } } });
}

/** Pushes the queued events (after the commit; a push that fails does not undo the stored message). */
export async function publishOutbox(realtime: RealtimeHub, outbox: EventOutbox): Promise<void> {
  for (const { userId, event } of outbox) await realtime.publishUserEvent(userId, event);
}

export function messageView(row: typeof messages.$inferSelect): TMessage {
  let params: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.params);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      params = parsed as Record<string, unknown>;
    }
  } catch {
    // a malformed stored params text shows the message without its details
  }
  return {
    id: row.id,
    kind: row.kind,
    params,
    created_at: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

export async function unreadCount(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.userId, userId), isNull(messages.readAt)));
  return row?.n ?? 0;
}

export async function listMessages(
  db: Executor,
  userId: number,
  query: { unread?: boolean; limit: number; offset: number },
): Promise<{ total: number; unread: number; items: TMessage[] }> {
  const where = and(eq(messages.userId, userId), query.unread ? isNull(messages.readAt) : undefined);
  const [rows, [total], unread] = await Promise.all([
    db
      .select()
      .from(messages)
      .where(where)
      .orderBy(desc(messages.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(messages).where(where),
    unreadCount(db, userId),
  ]);
  return { total: total?.n ?? 0, unread, items: rows.map(messageView) };
}

/** Marks the given messages of the user (or all of them) read; another user's ids are ignored. */
export async function markRead(db: Executor, userId: number, ids: number[] | 'all', at: Date): Promise<void> {
  await db
    .update(messages)
    .set({ readAt: at })
    .where(
      and(
        eq(messages.userId, userId),
        isNull(messages.readAt),
        ids === 'all' ? undefined : inArray(messages.id, ids),
      ),
    );
}

/**
 * The SMS twin of a message (issue 22): the catalogue's text of `kind` in the user's language, with the
 * params already formatted for reading, sent to the user's phone.
 */
export async function smsNotice(
  deps: { db: Executor; clock: Clock; sms: SmsSender },
  userId: number,
  kind: keyof Messages['messageKinds'],
  params: Record<string, string>,
  locale: Locale,
): Promise<void> {
  const [user] = await deps.db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
  if (!user) return;
  await deps.sms.send({
    phone: user.phone,
    purpose: kind,
    text: interpolate(MESSAGES[locale].messageKinds[kind], params),
    sentAt: deps.clock.now().toISOString(),
  });
}

/** An amount of sen and an instant as an SMS reads them (¥10,000; 2026/11/26 9:00 in Tokyo). */
export const smsMoney = (amountSen: number, locale: Locale) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'JPY' }).format(amountSen / 100);
export const smsTime = (at: Date, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Tokyo', dateStyle: 'short', timeStyle: 'short' }).format(
    at,
  );
