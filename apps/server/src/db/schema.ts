import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    phone: text('phone').notNull(),
    passwordHash: text('password_hash').notNull(),
    txnPasswordHash: text('txn_password_hash'),
    /** The user's own invitation code, given out on registration. */
    invitationCode: text('invitation_code').notNull(),
    /** The code this user registered with, and who owned it (null for a campaign code). */
    invitedByCode: text('invited_by_code').notNull(),
    inviterUserId: integer('inviter_user_id'),
    realNameStatus: text('real_name_status', { enum: ['unverified', 'pending', 'verified', 'rejected'] })
      .notNull()
      .default('unverified'),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_phone_uq').on(t.phone),
    uniqueIndex('users_invitation_code_uq').on(t.invitationCode),
  ],
);

export const invitationCodes = pgTable('invitation_codes', {
  code: text('code').primaryKey(),
  kind: text('kind', { enum: ['user', 'campaign'] }).notNull(),
  ownerUserId: integer('owner_user_id').references(() => users.id),
  active: boolean('active').notNull().default(true),
  note: text('note'),
  createdAt: createdAt(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** SHA-256 of the token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Absolute expiry; the idle expiry is last_seen_at + the idle timeout. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    phone: text('phone').notNull(),
    purpose: text('purpose', { enum: ['register'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('sms_codes_phone_idx').on(t.phone, t.purpose, t.createdAt)],
);

/**
 * The ledger (docs/adr/0002-money-and-quantities.md). An account belongs to a user (user_id set) or to
 * the house (user_id null). A balance is the sum of its postings; postings are never updated or deleted.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id),
    kind: text('kind').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_kind_uq')
      .on(t.userId, t.kind)
      .where(sql`${t.userId} is not null`),
    uniqueIndex('ledger_accounts_house_kind_uq')
      .on(t.kind)
      .where(sql`${t.userId} is null`),
  ],
);

export const journalEntries = pgTable('journal_entries', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  kind: text('kind').notNull(),
  memo: text('memo'),
  /** what caused it, e.g. an order number */
  ref: text('ref'),
  createdAt: createdAt(),
});

export const postings = pgTable(
  'postings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => journalEntries.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    /** sen (1/100 yen); positive increases what the account's owner holds (ADR 0002). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    /** the user whose chain this posting is in (null for the house's accounts) */
    userId: integer('user_id').references(() => users.id),
    /** position in the user's chain, from 1 */
    seq: integer('seq'),
    /** SHA-256 over the previous hash and this posting's content (ADR 0010) */
    hash: text('hash'),
  },
  (t) => [
    index('postings_account_idx').on(t.accountId, t.id),
    index('postings_entry_idx').on(t.entryId),
    uniqueIndex('postings_user_seq_uq').on(t.userId, t.seq),
    check('postings_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/** A user's watchlist (お気に入り): one row per stock. */
export const watchlist = pgTable(
  'watchlist',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    code: text('code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.code] })],
);

/** What a user searched for, newest first; one row per distinct query. */
export const searchHistory = pgTable(
  'search_history',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    query: text('query').notNull(),
    searchedAt: timestamp('searched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.query] }),
    index('search_history_recent_idx').on(t.userId, t.searchedAt),
  ],
);

/** Answers already given to requests that carried an Idempotency-Key, per user. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    response: text('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const orders = pgTable(
  'orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderNo: text('order_no').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    code: text('code').notNull(),
    kind: text('kind', { enum: ['open', 'close'] }).notNull(),
    direction: text('direction', { enum: ['long', 'short'] }).notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    priceType: text('price_type', { enum: ['market', 'limit'] }).notNull(),
    limitPrice: bigint('limit_price', { mode: 'number' }),
    quantity: integer('quantity').notNull(),
    leverage: integer('leverage').notNull(),
    dayTrade: boolean('day_trade').notNull().default(false),
    /** exchange: the TSE sessions; pts: the proprietary trading system's session (8:20-16:00) */
    venue: text('venue', { enum: ['exchange', 'pts'] })
      .notNull()
      .default('exchange'),
    positionId: integer('position_id'),
    status: text('status', { enum: ['pending', 'filled', 'cancelled', 'rejected'] }).notNull(),
    fillPrice: bigint('fill_price', { mode: 'number' }),
    principal: bigint('principal', { mode: 'number' }).notNull().default(0),
    fee: bigint('fee', { mode: 'number' }).notNull().default(0),
    /** cash held in the user's reserved account for this order while it is pending */
    reserved: bigint('reserved', { mode: 'number' }).notNull().default(0),
    reason: text('reason'),
    createdAt: createdAt(),
    filledAt: timestamp('filled_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_order_no_uq').on(t.orderNo),
    index('orders_user_idx').on(t.userId, t.id),
    index('orders_pending_idx').on(t.status, t.code),
  ],
);

export const positions = pgTable(
  'positions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    code: text('code').notNull(),
    direction: text('direction', { enum: ['long', 'short'] }).notNull(),
    leverage: integer('leverage').notNull(),
    dayTrade: boolean('day_trade').notNull().default(false),
    status: text('status', { enum: ['holding', 'closed'] }).notNull(),
    quantity: integer('quantity').notNull(),
    /** shares in pending close orders */
    closingQuantity: integer('closing_quantity').notNull().default(0),
    avgPrice: bigint('avg_price', { mode: 'number' }).notNull(),
    /** collateral held in the margin account for this position (0 for cash positions) */
    collateral: bigint('collateral', { mode: 'number' }).notNull().default(0),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closePrice: bigint('close_price', { mode: 'number' }),
    realizedPl: bigint('realized_pl', { mode: 'number' }).notNull().default(0),
    /** the holding position a closed part was split from */
    parentId: integer('parent_id'),
    /** a margin call: when it was made and the deadline to meet it (12:00 on the second business day) */
    marginCallAt: timestamp('margin_call_at', { withTimezone: true }),
    marginCallDeadline: timestamp('margin_call_deadline', { withTimezone: true }),
  },
  (t) => [index('positions_user_idx').on(t.userId, t.status)],
);

/** The user's messages (the message page comes with the funds feature; they are stored from now on). */
export const messages = pgTable(
  'messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    /** what the message is about, for its text in the user's language at reading time */
    params: text('params').notNull(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [index('messages_user_idx').on(t.userId, t.id)],
);
