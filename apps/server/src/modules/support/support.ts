import { and, count, desc, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import type { TSupportConversation, TSupportMessage } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { operators, supportConversations, supportMessages, uploads } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { audit } from '../console/audit.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import { ownUpload, storeImage, type UploadRow } from '../uploads/uploads.js';
import type { ImageLimits } from '../uploads/image.js';
import type { UploadStore } from '../uploads/storage.js';
import type { Clock } from '../../lib/clock.js';
import { checkStaffMessage } from './guard.js';

/** A user may send at most this many messages in SUPPORT_RATE_WINDOW_MS. */
export const SUPPORT_RATE_LIMIT = 10;
export const SUPPORT_RATE_WINDOW_MS = 60_000;
/** The live event each side's new message is pushed as on the user's channel. */
export const SUPPORT_EVENT = 'support_message';

type ConversationRow = typeof supportConversations.$inferSelect;
type MessageRow = typeof supportMessages.$inferSelect;

const messageView = (m: MessageRow): TSupportMessage => ({
  id: m.id,
  from: m.author,
  text: m.text,
  upload_id: m.uploadId,
  created_at: m.createdAt.toISOString(),
});

async function conversationOf(db: Executor, userId: number): Promise<ConversationRow | undefined> {
  const [row] = await db.select().from(supportConversations).where(eq(supportConversations.userId, userId));
  return row;
}

async function messagesOf(db: Executor, conversationId: number): Promise<MessageRow[]> {
  return db
    .select()
    .from(supportMessages)
    .where(eq(supportMessages.conversationId, conversationId))
    .orderBy(supportMessages.id)
    .limit(500);
}

async function unreadFor(db: Executor, c: ConversationRow, side: 'user' | 'staff'): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(supportMessages)
    .where(
      and(
        eq(supportMessages.conversationId, c.id),
        eq(supportMessages.author, side === 'user' ? 'staff' : 'user'),
        gt(supportMessages.id, side === 'user' ? c.userReadId : c.staffReadId),
      ),
    );
  return row?.n ?? 0;
}

/** The user's conversation (empty until the first message). */
export async function userConversation(db: Executor, userId: number): Promise<TSupportConversation> {
  const c = await conversationOf(db, userId);
  if (!c) return { id: null, state: 'open', messages: [], unread: 0 };
  return {
    id: c.id,
    state: c.state,
    messages: (await messagesOf(db, c.id)).map(messageView),
    unread: await unreadFor(db, c, 'user'),
  };
}

/** The user has seen every staff message so far. */
export async function markUserRead(db: Executor, userId: number): Promise<void> {
  const c = await conversationOf(db, userId);
  if (!c) return;
  const [last] = await db
    .select({ id: supportMessages.id })
    .from(supportMessages)
    .where(eq(supportMessages.conversationId, c.id))
    .orderBy(desc(supportMessages.id))
    .limit(1);
  if (last)
    await db
      .update(supportConversations)
      .set({ userReadId: last.id })
      .where(eq(supportConversations.id, c.id));
}

/**
 * The user writes: text and/or an image the user uploaded (purpose `support`, checked and re-encoded by
 * the uploads module). At most SUPPORT_RATE_LIMIT messages a minute. A resolved conversation opens again.
 */
export async function userSends(
  tx: Executor,
  outbox: EventOutbox,
  userId: number,
  input: { text: string; upload_id?: string | undefined },
  now: Date,
): Promise<TSupportMessage> {
  if (input.upload_id !== undefined) await ownUpload(tx, userId, input.upload_id, ['support']);
  let c = await conversationOf(tx, userId);
  if (!c) {
    [c] = await tx
      .insert(supportConversations)
      .values({ userId, state: 'open', lastMessageAt: now, createdAt: now })
      .onConflictDoNothing()
      .returning();
    c ??= await conversationOf(tx, userId);
    if (!c) throw new Error('conversation vanished');
  }
  // The conversation row is the user's lock for the rate count.
  await tx
    .select({ id: supportConversations.id })
    .from(supportConversations)
    .where(eq(supportConversations.id, c.id))
    .for('update');
  const [recent] = await tx
    .select({ n: count() })
    .from(supportMessages)
    .where(
      and(
        eq(supportMessages.conversationId, c.id),
        eq(supportMessages.author, 'user'),
        gte(supportMessages.createdAt, new Date(now.getTime() - SUPPORT_RATE_WINDOW_MS)),
      ),
    );
  if ((recent?.n ?? 0) >= SUPPORT_RATE_LIMIT) throw new AppError('SUPPORT_TOO_FAST');
  const [message] = await tx
    .insert(supportMessages)
    .values({
      conversationId: c.id,
      author: 'user',
      text: input.text,
      uploadId: input.upload_id ?? null,
      createdAt: now,
    })
    .returning();
  if (!message) throw new Error('insert returned nothing');
  await tx
    .update(supportConversations)
    .set({ state: 'open', lastMessageAt: now, userReadId: message.id })
    .where(eq(supportConversations.id, c.id));
  const view = messageView(message);
  outbox.push({ userId, event: { kind: SUPPORT_EVENT, at: now.toISOString(), data: { ...view } } });
  return view;
}

// ---------------------------------------------------------------- operators

export async function consoleList(db: Executor, filter: { state?: ConversationRow['state'] }) {
  const rows = await db
    .select()
    .from(supportConversations)
    .where(filter.state ? eq(supportConversations.state, filter.state) : undefined)
    .orderBy(desc(supportConversations.lastMessageAt))
    .limit(200);
  const lasts = rows.length
    ? await db
        .select()
        .from(supportMessages)
        .where(
          inArray(
            supportMessages.id,
            db
              .select({ id: sql<number>`max(${supportMessages.id})` })
              .from(supportMessages)
              .where(
                inArray(
                  supportMessages.conversationId,
                  rows.map((r) => r.id),
                ),
              )
              .groupBy(supportMessages.conversationId),
          ),
        )
    : [];
  const lastBy = new Map(lasts.map((m) => [m.conversationId, m]));
  const items = await Promise.all(
    rows.map(async (c) => consoleItem(c, lastBy.get(c.id), await unreadFor(db, c, 'staff'))),
  );
  return { items, unread: items.reduce((n, i) => n + i.unread, 0) };
}

function consoleItem(c: ConversationRow, last: MessageRow | undefined, unread: number) {
  return {
    id: c.id,
    user_id: c.userId,
    state: c.state,
    assignee_id: c.assigneeId,
    unread,
    last_message_at: c.lastMessageAt.toISOString(),
    last_text: last ? last.text.slice(0, 120) : '',
  };
}

async function lockConversation(tx: Executor, id: number): Promise<ConversationRow> {
  const [c] = await tx
    .select()
    .from(supportConversations)
    .where(eq(supportConversations.id, id))
    .for('update');
  if (!c) throw new AppError('SUPPORT_NOT_FOUND');
  return c;
}

/** An operator opens a conversation: every user message so far is seen. */
export async function consoleDetail(tx: Executor, id: number) {
  const c = await lockConversation(tx, id);
  const msgs = await messagesOf(tx, id);
  const last = msgs.at(-1);
  if (last)
    await tx
      .update(supportConversations)
      .set({ staffReadId: last.id })
      .where(eq(supportConversations.id, id));
  return { ...consoleItem(c, last, 0), messages: msgs.map(messageView) };
}

/**
 * An operator answers. The message is checked first (guard.ts): one with a bank account number, a request
 * for a password or a link outside the allow-list is refused with the reason, and the attempt is audited.
 * A sent answer assigns the conversation to its author if nobody has it, waits for the user, is stored as
 * a message for the user and pushed live.
 */
export async function staffReplies(
  tx: Executor,
  outbox: EventOutbox,
  operatorId: number,
  id: number,
  input: { text: string; upload_id?: string | undefined },
  now: Date,
): Promise<TSupportMessage> {
  const { text } = input;
  const c = await lockConversation(tx, id);
  const blocked = text === '' ? null : checkStaffMessage(text);
  if (blocked) {
    throw new AppError(blocked.error, blocked.params ?? {});
  }
  if (input.upload_id !== undefined) await staffImageOf(tx, c, input.upload_id);
  const [message] = await tx
    .insert(supportMessages)
    .values({
      conversationId: id,
      author: 'staff',
      operatorId,
      text,
      uploadId: input.upload_id ?? null,
      createdAt: now,
    })
    .returning();
  if (!message) throw new Error('insert returned nothing');
  await tx
    .update(supportConversations)
    .set({
      state: 'waiting_user',
      lastMessageAt: now,
      staffReadId: message.id,
      assigneeId: c.assigneeId ?? operatorId,
    })
    .where(eq(supportConversations.id, id));
  await audit(tx, {
    operatorId,
    action: 'support.reply',
    targetType: 'support_conversation',
    targetId: id,
    userId: c.userId,
    after: { message_id: message.id, upload_id: message.uploadId },
    at: now,
  });
  const view = messageView(message);
  await notify(tx, outbox, c.userId, 'support.reply', { conversation_id: id }, now);
  outbox.push({ userId: c.userId, event: { kind: SUPPORT_EVENT, at: now.toISOString(), data: { ...view } } });
  return view;
}

/**
 * An image staff attached to this conversation: uploaded by an operator for the conversation's user (so that
 * the user, and operators, can read it), purpose `support`. Anything else is UPLOAD_NOT_FOUND.
 */
async function staffImageOf(tx: Executor, c: ConversationRow, uploadId: string): Promise<UploadRow> {
  const [row] = await tx.select().from(uploads).where(eq(uploads.id, uploadId));
  if (!row || row.purpose !== 'support' || row.operatorId === null || row.userId !== c.userId) {
    throw new AppError('UPLOAD_NOT_FOUND');
  }
  return row;
}

/**
 * An operator attaches an image to a conversation: checked and re-encoded like every upload, stored as the
 * conversation user's (readable by that user and by operators) with the operator as its author, audited.
 * It is sent by a reply naming it.
 */
export async function staffUploadsImage(
  deps: { db: Executor; clock: Clock; store: UploadStore; images: ImageLimits },
  operatorId: number,
  conversationId: number,
  bytes: Uint8Array,
): Promise<UploadRow> {
  const [c] = await deps.db
    .select()
    .from(supportConversations)
    .where(eq(supportConversations.id, conversationId));
  if (!c) throw new AppError('SUPPORT_NOT_FOUND');
  const row = await storeImage(deps, { userId: c.userId, operatorId }, 'support', bytes);
  await audit(deps.db, {
    operatorId,
    action: 'support.image',
    targetType: 'support_conversation',
    targetId: conversationId,
    userId: c.userId,
    after: { upload_id: row.id, size: row.size, content_type: row.contentType },
    at: deps.clock.now(),
  });
  return row;
}

export async function assignConversation(
  tx: Executor,
  operatorId: number,
  id: number,
  assigneeId: number | null,
  now: Date,
) {
  const c = await lockConversation(tx, id);
  if (assigneeId !== null) {
    // an assignee who is not an active operator is a 404, not a foreign-key violation (a 500)
    const [assignee] = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(and(eq(operators.id, assigneeId), eq(operators.active, true)));
    if (!assignee) throw new AppError('NOT_FOUND');
  }
  await tx.update(supportConversations).set({ assigneeId }).where(eq(supportConversations.id, id));
  await audit(tx, {
    operatorId,
    action: 'support.assign',
    targetType: 'support_conversation',
    targetId: id,
    userId: c.userId,
    before: { assignee_id: c.assigneeId },
    after: { assignee_id: assigneeId },
    at: now,
  });
}

export async function changeState(
  tx: Executor,
  operatorId: number,
  id: number,
  state: ConversationRow['state'],
  now: Date,
) {
  const c = await lockConversation(tx, id);
  await tx.update(supportConversations).set({ state }).where(eq(supportConversations.id, id));
  await audit(tx, {
    operatorId,
    action: 'support.state',
    targetType: 'support_conversation',
    targetId: id,
    userId: c.userId,
    before: { state: c.state },
    after: { state },
    at: now,
  });
}
