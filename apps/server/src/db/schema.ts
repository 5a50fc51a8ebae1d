import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

import type { LedgerMemoParams } from '@kabuto/contract';

/** The account a cash holding is kept in (issue 23): 特定口座, 一般口座 or NISA (成長投資枠). */
export const TAX_ACCOUNTS = ['specific', 'general', 'nisa'] as const;
/** Cash (現物), 制度信用 (standard margin: 6-month repayment) or 一般信用 (general margin). */
export const MARGIN_TYPES = ['cash', 'standard', 'general'] as const;

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
    /** the client's address cut to its network (IPv4 /24, IPv6 /48), for the user's list of sessions */
    ipPrefix: text('ip_prefix'),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    phone: text('phone').notNull(),
    purpose: text('purpose', { enum: ['register', 'login'] }).notNull(),
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
  /**
   * the memo's structured parameters (code, quantity, price, order number, withdrawal id...), from which
   * clients render the memo in the reader's language; null for entries written before it existed, whose
   * English `memo` is all there is. Not part of the hash chain, like the memo (ADR 0020).
   */
  params: jsonb('params').$type<LedgerMemoParams>(),
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

/**
 * Each user's ledger head (ADR 0016): the user's balances and the head of the user's hash chain, kept in
 * step with the postings. It is a cache: every journal entry updates it in the statement that writes the
 * postings (modules/ledger/ledger.ts, entryCtes), and a check compares it with the fold of the postings
 * (ledgerHeadMismatches, run by the property and concurrency tests and by `npm run crash:orders`). Its row
 * is the user's lock: every money movement of a user takes it first (lockUser).
 */
export const ledgerHeads = pgTable('ledger_heads', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  /** the seq of the user's last posting (0 before the first) */
  seq: integer('seq').notNull().default(0),
  /** the hash of the user's last posting (64 zeros before the first) */
  hash: text('hash').notNull().default('0'.repeat(64)),
  cash: bigint('cash', { mode: 'number' }).notNull().default(0),
  reserved: bigint('reserved', { mode: 'number' }).notNull().default(0),
  margin: bigint('margin', { mode: 'number' }).notNull().default(0),
  withdrawing: bigint('withdrawing', { mode: 'number' }).notNull().default(0),
});

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
    /** the account the shares are bought into or sold from (margin: specific or general) */
    taxAccount: text('tax_account', { enum: TAX_ACCOUNTS }).notNull().default('specific'),
    /** 現物 or the kind of 信用 */
    marginType: text('margin_type', { enum: MARGIN_TYPES }).notNull().default('cash'),
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
    /** the account it is held in: one cash holding per (user, code, account); a margin 建玉 per opening order */
    taxAccount: text('tax_account', { enum: TAX_ACCOUNTS }).notNull().default('specific'),
    marginType: text('margin_type', { enum: MARGIN_TYPES }).notNull().default('cash'),
    /** 取得価額: what the shares held cost, fees included (sen); the tax cost basis, by moving average */
    bookValue: bigint('book_value', { mode: 'number' }).notNull().default(0),
    /** 制度信用: the repayment deadline (six months after opening); null otherwise */
    repayDeadline: timestamp('repay_deadline', { withTimezone: true }),
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

/** Who decided a reviewed item, when, and why (a rejection's reason, shown to the user as written). */
const reviewed = () => ({
  reason: text('reason'),
  reviewedBy: integer('reviewed_by'),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
});

/**
 * Files users upload (identity photos, bank-book images, deposit proofs), checked by content and stripped of
 * metadata before they are stored under DATA_DIR/uploads (never under the web root). Readable by their owner
 * and by operators.
 */
export const uploads = pgTable(
  'uploads',
  {
    /** random, unguessable (256 bits, hex) */
    id: text('id').primaryKey(),
    /**
     * whose file it is: the user who uploaded it, or the user of the support conversation an operator
     * attached it to (readable by that user); null for a banner image (ADR 0041)
     */
    userId: integer('user_id').references(() => users.id),
    /** the operator who uploaded it (a staff image in the support chat, a banner image); null for a user's */
    operatorId: integer('operator_id').references(() => operators.id),
    purpose: text('purpose', {
      enum: ['identity_front', 'identity_back', 'bank_account', 'deposit_proof', 'support', 'banner'],
    }).notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('uploads_user_idx').on(t.userId),
    // a user's upload names its user, an operator's its operator; only a banner image may be the system's
    check(
      'uploads_owner_ck',
      sql`${t.userId} IS NOT NULL OR ${t.operatorId} IS NOT NULL OR ${t.purpose} = 'banner'`,
    ),
  ],
);

/** Real-name verification submissions; the newest one of a user is in force (users.real_name_status mirrors it). */
export const identityVerifications = pgTable(
  'identity_verifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    fullName: text('full_name').notNull(),
    /** the reading of the name in full-width katakana, normalised (バンク口座名義と照合する) */
    fullNameKana: text('full_name_kana'),
    /** YYYY-MM-DD */
    birthDate: text('birth_date'),
    /** the account application's answers (address, occupation, income, assets, experience, purpose...) */
    profile: jsonb('profile').$type<Record<string, unknown>>(),
    documentType: text('document_type', {
      enum: ['my_number_card', 'driving_licence', 'passport', 'residence_card'],
    }),
    /** the My Number, AES-256-GCM encrypted (iv.tag.ciphertext, base64url); never stored in the clear */
    myNumberCipher: text('my_number_cipher'),
    myNumberLast4: text('my_number_last4'),
    /** 特定口座: with withholding, without, or none (一般口座 only) */
    specificAccount: text('specific_account', { enum: ['withholding', 'no_withholding', 'none'] }),
    openNisa: boolean('open_nisa'),
    idNumber: text('id_number').notNull(),
    frontUploadId: text('front_upload_id')
      .notNull()
      .references(() => uploads.id),
    backUploadId: text('back_upload_id')
      .notNull()
      .references(() => uploads.id),
    status: text('status', { enum: ['pending', 'passed', 'rejected'] })
      .notNull()
      .default('pending'),
    ...reviewed(),
    createdAt: createdAt(),
  },
  (t) => [
    index('identity_verifications_user_idx').on(t.userId, t.id),
    index('identity_verifications_status_idx').on(t.status, t.id),
  ],
);

/** Bank accounts a user withdraws to; only in the user's own verified name. */
export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    holderName: text('holder_name').notNull(),
    accountNumber: text('account_number').notNull(),
    /** 金融機関コード (4 digits, Zengin); null for accounts added before the Zengin data */
    bankCode: text('bank_code'),
    /** 預金種目 */
    accountType: text('account_type', { enum: ['ordinary', 'checking', 'savings'] })
      .notNull()
      .default('ordinary'),
    bankName: text('bank_name').notNull(),
    branchName: text('branch_name').notNull(),
    branchNumber: text('branch_number').notNull(),
    imageUploadId: text('image_upload_id').references(() => uploads.id),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'replaced'] })
      .notNull()
      .default('pending'),
    ...reviewed(),
    createdAt: createdAt(),
  },
  (t) => [
    index('bank_accounts_user_idx').on(t.userId, t.id),
    index('bank_accounts_status_idx').on(t.status, t.id),
  ],
);

/** Every change to a user's bank accounts, for the account log page; append-only. */
export const bankAccountLog = pgTable(
  'bank_account_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    bankAccountId: integer('bank_account_id')
      .notNull()
      .references(() => bankAccounts.id),
    action: text('action', { enum: ['added', 'changed', 'approved', 'rejected', 'replaced'] }).notNull(),
    /** JSON of the account's fields after the change (account number masked) */
    detail: text('detail').notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('bank_account_log_user_idx').on(t.userId, t.id)],
);

/** Deposit notices: the user says a transfer was made; an operator checks it and approval credits the ledger. */
export const deposits = pgTable(
  'deposits',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** sen */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    transferDate: text('transfer_date').notNull(),
    proofUploadId: text('proof_upload_id').references(() => uploads.id),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    ...reviewed(),
    /** the bank transfer it was matched with (deposit reconciliation); null while unmatched */
    transferId: integer('transfer_id'),
    /** approving a deposit with no matching transfer takes a reason and a second operator */
    firstApprovedBy: integer('first_approved_by'),
    firstApprovedAt: timestamp('first_approved_at', { withTimezone: true }),
    entryId: integer('entry_id').references(() => journalEntries.id),
    createdAt: createdAt(),
  },
  (t) => [index('deposits_user_idx').on(t.userId, t.id), index('deposits_status_idx').on(t.status, t.id)],
);

/**
 * Withdrawal requests. Filing moves the amount from cash to the user's `withdrawing` account at once;
 * approval pays it out to bank clearing, rejection returns it to cash. Above the second-approval threshold
 * two different operators must approve.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    bankAccountId: integer('bank_account_id')
      .notNull()
      .references(() => bankAccounts.id),
    /** sen */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    /** when it will be processed: the start of the withdrawal window in force at filing, or the next one */
    processAfter: timestamp('process_after', { withTimezone: true }).notNull(),
    /** whether two approvals are needed (decided at filing from the threshold then in force) */
    needsSecondApproval: boolean('needs_second_approval').notNull().default(false),
    firstApprovedBy: integer('first_approved_by'),
    firstApprovedAt: timestamp('first_approved_at', { withTimezone: true }),
    ...reviewed(),
    holdEntryId: integer('hold_entry_id').references(() => journalEntries.id),
    settleEntryId: integer('settle_entry_id').references(() => journalEntries.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('withdrawals_user_idx').on(t.userId, t.id),
    index('withdrawals_status_idx').on(t.status, t.id),
  ],
);

/** Console operators: their own accounts and sessions, separate from users'. */
export const operators = pgTable(
  'operators',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    displayName: text('display_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['reviewer', 'editor', 'administrator'] }).notNull(),
    mustChangePassword: boolean('must_change_password').notNull().default(true),
    active: boolean('active').notNull().default(true),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('operators_username_uq').on(t.username)],
);

export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('operator_sessions_token_hash_uq').on(t.tokenHash)],
);

/**
 * Every operator action: who, when, what, on what, why, and the state before and after. Append-only: a
 * trigger refuses UPDATE and DELETE (migration 0005).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** null for actions of the system itself (first start) */
    operatorId: integer('operator_id').references(() => operators.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** the user the target belongs to, for the user's audit trail */
    userId: integer('user_id').references(() => users.id),
    reason: text('reason'),
    before: text('before'),
    after: text('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_target_idx').on(t.targetType, t.targetId),
    index('audit_log_user_idx').on(t.userId, t.id),
    index('audit_log_operator_idx').on(t.operatorId, t.id),
  ],
);

/** Operator-published settings (JSON values); defaults come from the server's configuration. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedBy: integer('updated_by').references(() => operators.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which deployment this database is: one row, a random id written by the first start on it (never by a
 * migration, so that data folders copied from the build's migrated template each get their own). Every process
 * on this database is one deployment; with Redis, the id is claimed under REDIS_PREFIX so that a second
 * deployment on the same prefix cannot start (realtime/deployment.ts, ADR 0052).
 */
export const deployment = pgTable(
  'deployment',
  {
    /** always true: the table holds at most one row */
    singleton: boolean('singleton').primaryKey().default(true),
    id: text('id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('deployment_singleton_ck', sql`${t.singleton}`)],
);

/**
 * The brokerage account (証券総合口座) opened when an account application passes review: which tax accounts
 * it has and which is the default for new cash orders. What it may do beyond cash trading (margin, short
 * selling, loans) is decided from the application's profile by the published suitability rules.
 */
export const brokerageAccounts = pgTable('brokerage_accounts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  /** the application that opened it */
  identityId: integer('identity_id').references(() => identityVerifications.id),
  specificAccount: text('specific_account', { enum: ['withholding', 'no_withholding', 'none'] }).notNull(),
  nisaOpenedAt: timestamp('nisa_opened_at', { withTimezone: true }),
  defaultTaxAccount: text('default_tax_account', { enum: TAX_ACCOUNTS }).notNull(),
  openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
});

/**
 * Every realized sale or repayment (譲渡), for tax and the annual trade report (年間取引報告書): what it
 * brought (fees deducted), what the shares cost (取得費, by moving average), and the gain. Append-only.
 */
export const realizations = pgTable(
  'realizations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    taxAccount: text('tax_account', { enum: TAX_ACCOUNTS }).notNull(),
    marginType: text('margin_type', { enum: MARGIN_TYPES }).notNull(),
    code: text('code').notNull(),
    quantity: integer('quantity').notNull(),
    /** 譲渡の対価: the proceeds (sen) */
    proceeds: bigint('proceeds', { mode: 'number' }).notNull(),
    /** 取得費及び譲渡費用: cost basis plus the selling fee (sen) */
    cost: bigint('cost', { mode: 'number' }).notNull(),
    /** proceeds − cost (sen) */
    gain: bigint('gain', { mode: 'number' }).notNull(),
    /** the tax year: the calendar year in Tokyo */
    year: integer('year').notNull(),
    realizedAt: timestamp('realized_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('realizations_user_year_idx').on(t.userId, t.year, t.taxAccount)],
);

/** A bank statement file of the firm's incoming transfers, imported by an operator (deposit reconciliation). */
export const bankStatements = pgTable(
  'bank_statements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    filename: text('filename').notNull(),
    /** SHA-256 of the file: the same file is imported once */
    sha256: text('sha256').notNull(),
    format: text('format').notNull(),
    lines: integer('lines').notNull(),
    importedBy: integer('imported_by')
      .notNull()
      .references(() => operators.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('bank_statements_sha256_uq').on(t.sha256)],
);

/** One incoming transfer of an imported statement, and what it was matched with. */
export const bankTransfers = pgTable(
  'bank_transfers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    statementId: integer('statement_id')
      .notNull()
      .references(() => bankStatements.id),
    /** the bank's reference of the transfer: a transfer is imported once, whatever file carries it */
    bankRef: text('bank_ref').notNull(),
    /** YYYY-MM-DD */
    transferDate: text('transfer_date').notNull(),
    /** sen */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** 振込依頼人名 as the bank sent it (half-width katakana, usually) */
    payerName: text('payer_name').notNull(),
    /** the virtual account number (振込先口座) the customer transferred to */
    virtualAccount: text('virtual_account').notNull(),
    userId: integer('user_id').references(() => users.id),
    status: text('status', { enum: ['unmatched', 'matched', 'credited', 'ignored'] })
      .notNull()
      .default('unmatched'),
    depositId: integer('deposit_id').references(() => deposits.id),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('bank_transfers_bank_ref_uq').on(t.bankRef),
    index('bank_transfers_status_idx').on(t.status, t.id),
  ],
);

/**
 * One run of a scheduled job (NAV strike, dividend payment, loan accrual, IPO draw...) for one key (a
 * business date, an offering): the row is written in the transaction that does the job's work, so a job
 * runs exactly once per key across any number of processes, and a process killed mid-run leaves no row and
 * the next pass runs it again (modules/jobs/run-once.ts).
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    runKey: text('run_key').notNull(),
    /** what the run did (counts, totals), for operators and tests */
    summary: jsonb('summary').$type<Record<string, unknown>>().notNull().default({}),
    doneAt: timestamp('done_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.job, t.runKey] })],
);

/**
 * Failed checks of one user's secret (the login password outside login, the transaction password), shared by
 * every route that checks it (modules/auth/secrets.ts): an attempt is counted before it is checked, so that
 * concurrent guesses cannot get past the limit; five failures lock the secret's uses for 30 minutes.
 */
export const secretFailures = pgTable(
  'secret_failures',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    secret: text('secret', { enum: ['login', 'txn'] }).notNull(),
    /** attempts counted since the last success or lock (each attempt is counted before it is checked) */
    failures: integer('failures').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.secret] })],
);

/**
 * The failed-login throttle (ADR 0030): one row per account as typed (a hash, whether or not it is registered)
 * and one per client address. Each attempt is counted before its password is checked; from the free
 * failures on, `next_at` holds the next attempt back by a doubling delay. `blocked` is what the last attempt
 * found: whether it arrived before `next_at` (so not counted).
 */
export const loginThrottles = pgTable('login_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  nextAt: timestamp('next_at', { withTimezone: true }),
  blocked: boolean('blocked').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** SMS codes sent per Tokyo day, per client address and per number range (SMS pumping, ADR 0030). */
export const smsDailyCounts = pgTable(
  'sms_daily_counts',
  {
    key: text('key').notNull(),
    day: text('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.day] })],
);

// ---------------------------------------------------------------- follow-up products and dividends (issue 17, ADR 0027)

/**
 * A follow-up product (跟投商品): a model portfolio published by an administrator. What it holds and its fee
 * live in its versions; the row carries what does not change with a version.
 */
export const products = pgTable('products', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  issuer: text('issuer').notNull(),
  name: text('name').notNull(),
  strategy: text('strategy').notNull(),
  riskDisclosure: text('risk_disclosure').notNull(),
  /** the fund size cap (sen): units outstanding × NAV plus pending applications may not pass it */
  fundCap: bigint('fund_cap', { mode: 'number' }).notNull(),
  /** last Tokyo date applications are accepted */
  deadline: text('deadline').notNull(),
  minInvestment: bigint('min_investment', { mode: 'number' }).notNull(),
  /** the latest version (product_versions) */
  version: integer('version').notNull().default(1),
  publishedBy: integer('published_by').references(() => operators.id),
  createdAt: createdAt(),
});

/** A version of a product's portfolio and fee: effective from the NAV of `effective_date` on. Append-only. */
export const productVersions = pgTable(
  'product_versions',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    version: integer('version').notNull(),
    /** [{code, weight_bp}] summing to 10,000 */
    constituents: jsonb('constituents').$type<{ code: string; weight_bp: number }[]>().notNull(),
    /** annual management fee, parts per million */
    feePpm: integer('fee_ppm').notNull(),
    effectiveDate: text('effective_date').notNull(),
    reason: text('reason'),
    createdBy: integer('created_by').references(() => operators.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.version] })],
);

/**
 * A product's NAV (基準価額, sen per 10,000 units) of one date, with the constituents' closing prices it was
 * struck from (the next strike's starting point). Written once per (product, date) by the NAV job.
 */
export const productNavs = pgTable(
  'product_navs',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    date: text('date').notNull(),
    nav: bigint('nav', { mode: 'number' }).notNull(),
    closes: jsonb('closes').$type<Record<string, number>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.date] })],
);

/** A holder's purchase of a product and, later, its sale: one record from application to follow ended. */
export const productRecords = pgTable(
  'product_records',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    status: text('status', { enum: ['pending', 'following', 'redeeming', 'ended'] }).notNull(),
    /** the amount applied for (sen), held in the user's reserved account until the NAV is struck */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    buyAt: timestamp('buy_at', { withTimezone: true }).notNull(),
    buyNavDate: text('buy_nav_date').notNull(),
    buyNav: bigint('buy_nav', { mode: 'number' }),
    units: bigint('units', { mode: 'number' }),
    cost: bigint('cost', { mode: 'number' }),
    sellAt: timestamp('sell_at', { withTimezone: true }),
    sellNavDate: text('sell_nav_date'),
    sellNav: bigint('sell_nav', { mode: 'number' }),
    proceeds: bigint('proceeds', { mode: 'number' }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('product_records_user_idx').on(t.userId, t.id),
    index('product_records_product_idx').on(t.productId, t.status),
  ],
);

/** A holder's acknowledgement of a product version's risk disclosure, before the first buy. */
export const productRiskAcks = pgTable(
  'product_risk_acks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    version: integer('version').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId, t.version] })],
);

/** A dividend announcement: per share, record date (and the cum and ex dates derived from it), payment date. */
export const dividendAnnouncements = pgTable(
  'dividend_announcements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    perShare: bigint('per_share', { mode: 'number' }).notNull(),
    recordDate: text('record_date').notNull(),
    cumDate: text('cum_date').notNull(),
    exDate: text('ex_date').notNull(),
    paymentDate: text('payment_date').notNull(),
    /** where the figure comes from (the demo data file's source), or null when an operator published it */
    source: text('source'),
    publishedBy: integer('published_by').references(() => operators.id),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('dividend_announcements_code_record_uq').on(t.code, t.recordDate)],
);

/**
 * What one holder received (or, a margin short, paid) for one announcement: shares held at the end of the
 * cum date, gross, tax withheld and net. Written by the payment job with its ledger entry. Append-only.
 */
export const dividendPayments = pgTable(
  'dividend_payments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => dividendAnnouncements.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['dividend', 'adjustment_receive', 'adjustment_pay'] }).notNull(),
    taxAccount: text('tax_account', { enum: TAX_ACCOUNTS }).notNull(),
    quantity: integer('quantity').notNull(),
    gross: bigint('gross', { mode: 'number' }).notNull(),
    taxNational: bigint('tax_national', { mode: 'number' }).notNull(),
    taxLocal: bigint('tax_local', { mode: 'number' }).notNull(),
    /** signed: what the user's cash moved by */
    net: bigint('net', { mode: 'number' }).notNull(),
    entryId: integer('entry_id').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('dividend_payments_uq').on(t.announcementId, t.userId, t.kind, t.taxAccount),
    index('dividend_payments_user_idx').on(t.userId, t.id),
  ],
);

// ---------------------------------------------------------------------------------------------------------
// IPOs and off-auction distributions (issue 16, ADR 0026, docs/DRAW.md)
// ---------------------------------------------------------------------------------------------------------

/**
 * An offering: an IPO (book-building, draw, purchase window, listing) or an off-auction distribution
 * (立会外分売: a computed price, a window before the open, a draw when oversubscribed). The seed is drawn
 * from the OS CSPRNG at publication and only its SHA-256 is shown until the draw; the list hash is written
 * at the close, the allocation and drawn order at the draw. None of these change afterwards (a trigger in the
 * migration refuses it).
 */
export const offerings = pgTable(
  'offerings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: ['ipo', 'distribution'] }).notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    market: text('market').notNull(),
    priceLow: bigint('price_low', { mode: 'number' }),
    priceHigh: bigint('price_high', { mode: 'number' }),
    offerPrice: bigint('offer_price', { mode: 'number' }),
    baseClose: bigint('base_close', { mode: 'number' }),
    discountBps: integer('discount_bps'),
    unitShares: integer('unit_shares').notNull(),
    offeringUnits: integer('offering_units').notNull(),
    capUnits: integer('cap_units').notNull(),
    windowOpen: timestamp('window_open', { withTimezone: true }).notNull(),
    windowClose: timestamp('window_close', { withTimezone: true }).notNull(),
    drawAt: timestamp('draw_at', { withTimezone: true }).notNull(),
    purchaseDeadline: timestamp('purchase_deadline', { withTimezone: true }),
    listingAt: timestamp('listing_at', { withTimezone: true }).notNull(),
    policy: jsonb('policy').$type<{ kind: 'equal' } | { kind: 'weighted'; points_bps: number }>().notNull(),
    prospectusUrl: text('prospectus_url'),
    seed: text('seed').notNull(),
    seedHash: text('seed_hash').notNull(),
    listHash: text('list_hash'),
    /** the draw's result: allocations [{id, units}] and the drawn order of application ids */
    allocations: jsonb('allocations').$type<Array<{ id: number; units: number }>>(),
    drawOrder: jsonb('draw_order').$type<number[]>(),
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('offerings_window_idx').on(t.windowClose)],
);

/** One customer's application to one offering (one live application per customer and offering). */
export const offeringApplications = pgTable(
  'offering_applications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    offeringId: integer('offering_id')
      .notNull()
      .references(() => offerings.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** the applicant's pseudonym in the published list: HMAC of the user id under the offering's seed */
    pseudonym: text('pseudonym').notNull(),
    units: integer('units').notNull(),
    /** the bid (IPO book-building), null for "at the offer price" */
    bidPrice: bigint('bid_price', { mode: 'number' }),
    /** challenge points held when the window closed (weighted policy) */
    points: integer('points').notNull().default(0),
    state: text('state', {
      enum: ['applied', 'withdrawn', 'won', 'lost', 'approved', 'declined', 'lapsed', 'cancelled'],
    }).notNull(),
    reason: text('reason', { enum: ['not_drawn', 'cancelled', 'bid_below_offer', 'withdrawn'] }),
    wonUnits: integer('won_units').notNull().default(0),
    /** cash held in the user's reserved account for this application now */
    reserved: bigint('reserved', { mode: 'number' }).notNull(),
    amountPaid: bigint('amount_paid', { mode: 'number' }).notNull().default(0),
    /** the holding the shares were delivered to */
    positionId: integer('position_id'),
    /**
     * the tax account the shares go into (ADR 0035): chosen at application (default: the customer's default);
     * NISA is checked against the growth quota then and again at delivery, and becomes 特定 (or 一般) when it no
     * longer fits. Null for applications made before the choice existed (the old rule: NISA → 特定).
     */
    taxAccount: text('tax_account', { enum: ['specific', 'general', 'nisa'] }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('offering_applications_live_uq')
      .on(t.offeringId, t.userId)
      .where(sql`state <> 'withdrawn'`),
    index('offering_applications_user_idx').on(t.userId),
  ],
);

/** Challenge points (IPOチャレンジポイント): one per losing application, spent when they win a unit. */
export const ipoPoints = pgTable('ipo_points', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  points: integer('points').notNull().default(0),
});

// ---------------------------------------------------------------- credit loans (issue 18, ADR 0028)

/**
 * Loan products an administrator publishes: the annual rate and late-charge rate (basis points), the term
 * and the amounts offered. The server refuses a product whose rate is above the Interest Rate Restriction
 * Act's cap for its largest amount, or whose late rate is above 20% (a CHECK repeats the absolute bounds).
 */
export const loanProducts = pgTable(
  'loan_products',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    rateBp: integer('rate_bp').notNull(),
    lateRateBp: integer('late_rate_bp').notNull(),
    termDays: integer('term_days').notNull(),
    minYen: bigint('min_yen', { mode: 'number' }).notNull(),
    maxYen: bigint('max_yen', { mode: 'number' }).notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'loan_products_rate_ck',
      sql`${t.rateBp} between 0 and 2000 and ${t.lateRateBp} between 0 and 2000`,
    ),
    check(
      'loan_products_amounts_ck',
      sql`${t.minYen} >= 1 and ${t.minYen} <= ${t.maxYen} and ${t.maxYen} <= 100000000`,
    ),
  ],
);

/** A user's credit limit as a reviewer last set it (none: the policy's default limit). */
export const loanLimits = pgTable('loan_limits', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  limitYen: bigint('limit_yen', { mode: 'number' }).notNull(),
  setBy: integer('set_by').notNull(),
  setAt: timestamp('set_at', { withTimezone: true }).notNull(),
});

/**
 * A loan from its application to its repayment. The terms (rate, late rate, free period, due date) are fixed
 * at disbursement; what is owed is never stored: the principal is the disbursement's entry, interest and late
 * charges the loan's accrual rows (loan_accruals).
 */
export const loans = pgTable(
  'loans',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => loanProducts.id),
    status: text('status', {
      enum: ['pending', 'disbursing', 'rejected', 'repaying', 'overdue', 'collection', 'repaid'],
    })
      .notNull()
      .default('pending'),
    /** sen, as applied for */
    requested: bigint('requested', { mode: 'number' }).notNull(),
    /** sen, as approved and paid out (null before) */
    principal: bigint('principal', { mode: 'number' }),
    fullName: text('full_name').notNull(),
    /** the ID number as given, masked to its last 4 characters */
    idNumber: text('id_number').notNull(),
    address: text('address').notNull(),
    contactPhone: text('contact_phone').notNull(),
    email: text('email').notNull(),
    /** yen, as declared */
    annualIncomeYen: bigint('annual_income_yen', { mode: 'number' }).notNull(),
    otherBorrowingYen: bigint('other_borrowing_yen', { mode: 'number' }).notNull(),
    agreedAt: timestamp('agreed_at', { withTimezone: true }).notNull(),
    rateBp: integer('rate_bp'),
    lateRateBp: integer('late_rate_bp'),
    lateGraceDays: integer('late_grace_days'),
    /** Tokyo dates */
    disbursedOn: text('disbursed_on'),
    dueOn: text('due_on'),
    freeUntil: text('free_until'),
    needsSecondApproval: boolean('needs_second_approval').notNull().default(false),
    firstApprovedBy: integer('first_approved_by'),
    firstApprovedAt: timestamp('first_approved_at', { withTimezone: true }),
    /** the limit the first approver set, applied with the second approval */
    approvedLimitYen: bigint('approved_limit_yen', { mode: 'number' }),
    rejectReasonCode: text('reject_reason_code'),
    ...reviewed(),
    disburseEntryId: integer('disburse_entry_id').references(() => journalEntries.id),
    disbursedAt: timestamp('disbursed_at', { withTimezone: true }),
    repayEntryId: integer('repay_entry_id').references(() => journalEntries.id),
    repaidAt: timestamp('repaid_at', { withTimezone: true }),
    repaidAmount: bigint('repaid_amount', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('loans_user_idx').on(t.userId, t.id),
    index('loans_status_idx').on(t.status, t.id),
    check(
      'loans_principal_ck',
      sql`${t.principal} is null or (${t.principal} > 0 and ${t.principal} <= 10000000000)`,
    ),
    check('loans_rates_ck', sql`${t.rateBp} is null or (${t.rateBp} <= 2000 and ${t.lateRateBp} <= 2000)`),
  ],
);

/**
 * One day's interest and late charge of a loan (sen), written by the daily accrual job or, for the days the
 * job has not reached yet, by the repayment: one row per loan and Tokyo date, so a day is charged once.
 */
export const loanAccruals = pgTable(
  'loan_accruals',
  {
    loanId: integer('loan_id')
      .notNull()
      .references(() => loans.id),
    day: text('day').notNull(),
    interest: bigint('interest', { mode: 'number' }).notNull(),
    lateCharge: bigint('late_charge', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.loanId, t.day] }),
    check('loan_accruals_amounts_ck', sql`${t.interest} >= 0 and ${t.lateCharge} >= 0`),
  ],
);

// ---------------------------------------------------------------- news and customer service (ADR 0029)

/**
 * An article: written in the console, or imported from a feed (`feedId`, `guid`: imported once). Readers see
 * it once `state` is published and `publishAt` has passed. Its language versions are news_article_versions;
 * every publish, edit and retraction keeps the previous state in news_article_revisions.
 */
export const newsArticles = pgTable(
  'news_articles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    state: text('state', { enum: ['draft', 'published', 'retracted'] })
      .notNull()
      .default('draft'),
    category: text('category', { enum: ['market', 'company', 'notice', 'research', 'feed'] }).notNull(),
    codes: jsonb('codes').$type<string[]>().notNull().default([]),
    pinned: boolean('pinned').notNull().default(false),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    revision: integer('revision').notNull().default(1),
    feedId: integer('feed_id'),
    guid: text('guid'),
    link: text('link'),
    createdBy: integer('created_by').references(() => operators.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('news_articles_published_idx').on(t.state, t.publishAt, t.id),
    uniqueIndex('news_articles_feed_guid_uq').on(t.feedId, t.guid),
  ],
);

/** One language version of an article: the editor's Markdown and the sanitised HTML made from it. */
export const newsArticleVersions = pgTable(
  'news_article_versions',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => newsArticles.id),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    html: text('html').notNull(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.locale] })],
);

/** The article as it stood before each change (append-only). */
export const newsArticleRevisions = pgTable(
  'news_article_revisions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    articleId: integer('article_id')
      .notNull()
      .references(() => newsArticles.id),
    revision: integer('revision').notNull(),
    action: text('action').notNull(),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    operatorId: integer('operator_id').references(() => operators.id),
    createdAt: createdAt(),
  },
  (t) => [index('news_article_revisions_article_idx').on(t.articleId, t.id)],
);

/** Which articles a user has opened (the unread marks). */
export const newsReads = pgTable(
  'news_reads',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    articleId: integer('article_id')
      .notNull()
      .references(() => newsArticles.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.articleId] })],
);

/** An RSS 2.0 or Atom feed an administrator configured, and how its last poll went. */
export const newsFeeds = pgTable('news_feeds', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  url: text('url').notNull(),
  locale: text('locale').notNull(),
  pollMinutes: integer('poll_minutes').notNull(),
  active: boolean('active').notNull().default(true),
  etag: text('etag'),
  lastModified: text('last_modified'),
  state: text('state', { enum: ['never', 'ok', 'not_modified', 'failed'] })
    .notNull()
    .default('never'),
  lastError: text('last_error'),
  lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** A user's support conversation (one per user), its state and who of the operators has it. */
export const supportConversations = pgTable(
  'support_conversations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    state: text('state', { enum: ['open', 'waiting_user', 'resolved'] })
      .notNull()
      .default('open'),
    assigneeId: integer('assignee_id').references(() => operators.id),
    /** the last message each side has seen (unread badges) */
    userReadId: integer('user_read_id').notNull().default(0),
    staffReadId: integer('staff_read_id').notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('support_conversations_user_uq').on(t.userId),
    index('support_conversations_state_idx').on(t.state, t.lastMessageAt),
  ],
);

export const supportMessages = pgTable(
  'support_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => supportConversations.id),
    author: text('author', { enum: ['user', 'staff'] }).notNull(),
    operatorId: integer('operator_id').references(() => operators.id),
    text: text('text').notNull(),
    uploadId: text('upload_id').references(() => uploads.id),
    createdAt: createdAt(),
  },
  (t) => [index('support_messages_conversation_idx').on(t.conversationId, t.id)],
);

// ---------------------------------------------------------------- passkeys and step-up (issue 22, ADR 0031)

/**
 * A WebAuthn passkey (a discoverable credential with user verification) of a user or, for the console, of an
 * operator (ADR 0033): exactly one of the two owners is set.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id),
    operatorId: integer('operator_id').references(() => operators.id),
    /** the credential ID, base64url */
    credentialId: text('credential_id').notNull(),
    /** the COSE public key, base64url */
    publicKey: text('public_key').notNull(),
    /** the authenticator's signature counter (0 for most passkeys, which keep none) */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('passkeys_credential_uq').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
    index('passkeys_operator_idx').on(t.operatorId),
    check('passkeys_one_owner', sql`(${t.userId} is null) <> (${t.operatorId} is null)`),
  ],
);

/**
 * A single-use WebAuthn challenge: to register a passkey, to sign in, or to step up for one action. A step-up
 * challenge names its action and details (the amount, the bank account...); once answered it becomes a
 * step-up token (its hash kept here) that the action's route consumes, once, for that action and those
 * details only, within a few minutes.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** null for a sign-in challenge (the user is not known until the assertion names its passkey) */
    userId: integer('user_id').references(() => users.id),
    /** whose ceremony: a customer's (user) or the console's (operator, ADR 0033) */
    subject: text('subject', { enum: ['user', 'operator'] })
      .notNull()
      .default('user'),
    /** the operator of a console registration (null for a console sign-in, as userId above) */
    operatorId: integer('operator_id').references(() => operators.id),
    purpose: text('purpose', { enum: ['register', 'login', 'step_up'] }).notNull(),
    challenge: text('challenge').notNull(),
    /** the step-up's action (withdrawal, bank_account, ...) and a canonical string of its details */
    action: text('action'),
    details: text('details'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** when the challenge was answered (it cannot be answered twice) */
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** SHA-256 of the step-up token given for the answer */
    tokenHash: text('token_hash'),
    /** when the step-up token was spent on its action */
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webauthn_challenges_challenge_uq').on(t.challenge),
    uniqueIndex('webauthn_challenges_token_uq').on(t.tokenHash),
    index('webauthn_challenges_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Home banners (issue 19, ADR 0041): an operator-uploaded image, per-language title and alternative text,
 * a link (an in-app route or an allow-listed https host), an order and a publish window. Every change is
 * audited with the banner before and after.
 */
export const banners = pgTable(
  'banners',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    state: text('state', { enum: ['draft', 'published', 'retracted'] })
      .notNull()
      .default('draft'),
    uploadId: text('upload_id')
      .notNull()
      .references(() => uploads.id),
    texts: jsonb('texts').$type<{ locale: string; title: string; alt: string }[]>().notNull(),
    link: text('link').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    revision: integer('revision').notNull().default(1),
    createdBy: integer('created_by').references(() => operators.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('banners_published_idx').on(t.state, t.sortOrder, t.id)],
);
