import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  sameAccountHolder,
  sen,
  type TBankTransfer,
  type TStatementImportResult,
  type TStatementLine,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { bankStatements, bankTransfers, deposits, identityVerifications, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { audit } from '../console/audit.js';
import type { OperatorPrincipal } from '../console/operators.js';
import type { Clock } from '../../lib/clock.js';
import { lockUser } from '../ledger/ledger.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import {
  decodeStatement,
  parseStatement,
  STATEMENT_FORMAT,
  type StatementTransfer,
} from './statement-file.js';

/**
 * Deposit reconciliation (ADR 0023): an operator imports the bank's statement of the firm's incoming
 * transfers; each transfer is matched by its virtual account number (the customer) and its amount to the
 * customer's oldest pending deposit notice of that amount. Matched deposits are credited through the
 * deposit review (one approval); unmatched transfers stay listed.
 */

export interface ReconDeps {
  clock: Clock;
  operator: OperatorPrincipal;
}

/** The user a virtual account number belongs to (the published prefix, then the zero-padded user id). */
export function userOfVirtualAccount(prefix: string, account: string): number | null {
  if (!account.startsWith(prefix)) return null;
  const rest = account.slice(prefix.length);
  if (!/^\d+$/u.test(rest)) return null;
  const id = Number(rest);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

/**
 * Imports one statement file in one transaction: the same file twice is refused (its SHA-256); a file with
 * any invalid line is refused whole with the report of every line (nothing is written: fix the file and
 * import it again); transfers already imported from another file are skipped (`duplicate`).
 */
export async function importStatement(
  tx: Tx,
  deps: ReconDeps,
  file: { filename: string; bytes: Uint8Array },
  numberPrefix: string,
): Promise<TStatementImportResult> {
  const now = deps.clock.now();
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  const [earlier] = await tx
    .select({ id: bankStatements.id, at: bankStatements.createdAt })
    .from(bankStatements)
    .where(eq(bankStatements.sha256, sha256));
  if (earlier) {
    throw new AppError('STATEMENT_ALREADY_IMPORTED', { id: earlier.id, at: earlier.at.toISOString() });
  }
  const { text, encoding } = decodeStatement(file.bytes);
  const parsed = parseStatement(text);
  const invalid = parsed.filter((l) => !l.ok);
  if (invalid.length > 0) {
    const lines: TStatementLine[] = parsed.map((l) => ({
      line: l.line,
      bank_ref: l.bank_ref,
      outcome: l.ok ? 'unmatched' : 'invalid',
      error: l.ok ? null : l.error,
      amount: l.ok ? l.amount : null,
      user_id: null,
      deposit_id: null,
      transfer_id: null,
    }));
    throw new AppError('STATEMENT_LINES_INVALID', { count: invalid.length }, { lines });
  }
  const transfers = parsed.filter((l): l is { ok: true } & StatementTransfer => l.ok);

  const [statement] = await tx
    .insert(bankStatements)
    .values({
      filename: file.filename,
      sha256,
      format: STATEMENT_FORMAT,
      lines: transfers.length,
      importedBy: deps.operator.id,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning();
  // Another operator imported the same file at the same moment.
  if (!statement) throw new AppError('STATEMENT_ALREADY_IMPORTED', { id: '?', at: now.toISOString() });

  const refs = transfers.map((l) => l.bank_ref);
  const known = new Set(
    refs.length === 0
      ? []
      : (
          await tx
            .select({ ref: bankTransfers.bankRef })
            .from(bankTransfers)
            .where(inArray(bankTransfers.bankRef, refs))
        ).map((r) => r.ref),
  );
  const candidates = [
    ...new Set(
      transfers.map((l) => userOfVirtualAccount(numberPrefix, l.virtual_account)).filter((u) => u !== null),
    ),
  ];
  const existing = new Set(
    candidates.length === 0
      ? []
      : (await tx.select({ id: users.id }).from(users).where(inArray(users.id, candidates))).map((r) => r.id),
  );
  // Users are locked in id order (every money movement of a user takes this lock first), so two imports
  // touching the same customers cannot deadlock and a deposit cannot be decided while it is being matched.
  for (const userId of [...existing].sort((a, b) => a - b)) await lockUser(tx, userId);

  const lines: TStatementLine[] = [];
  let matched = 0;
  for (const l of transfers) {
    if (known.has(l.bank_ref)) {
      lines.push({
        line: l.line,
        bank_ref: l.bank_ref,
        outcome: 'duplicate',
        error: null,
        amount: l.amount,
        user_id: null,
        deposit_id: null,
        transfer_id: null,
      });
      continue;
    }
    const candidate = userOfVirtualAccount(numberPrefix, l.virtual_account);
    const userId = candidate !== null && existing.has(candidate) ? candidate : null;
    const [notice] =
      userId === null
        ? []
        : await tx
            .select({ id: deposits.id })
            .from(deposits)
            .where(
              and(
                eq(deposits.userId, userId),
                eq(deposits.status, 'pending'),
                eq(deposits.amount, l.amount),
                isNull(deposits.transferId),
              ),
            )
            .orderBy(asc(deposits.id))
            .limit(1);
    const [transfer] = await tx
      .insert(bankTransfers)
      .values({
        statementId: statement.id,
        bankRef: l.bank_ref,
        transferDate: l.transfer_date,
        amount: l.amount,
        payerName: l.payer_name,
        virtualAccount: l.virtual_account,
        userId,
        status: notice ? 'matched' : 'unmatched',
        depositId: notice?.id ?? null,
        createdAt: now,
      })
      .returning({ id: bankTransfers.id });
    if (!transfer) throw new Error('bank transfer was not written');
    if (notice) {
      await tx.update(deposits).set({ transferId: transfer.id }).where(eq(deposits.id, notice.id));
      matched += 1;
    }
    lines.push({
      line: l.line,
      bank_ref: l.bank_ref,
      outcome: notice ? 'matched' : 'unmatched',
      error: null,
      amount: l.amount,
      user_id: userId,
      deposit_id: notice?.id ?? null,
      transfer_id: transfer.id,
    });
  }
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'bank_statement.import',
    targetType: 'bank_statement',
    targetId: statement.id,
    after: {
      filename: file.filename,
      sha256,
      encoding,
      lines: transfers.length,
      matched,
      duplicate: lines.filter((l) => l.outcome === 'duplicate').length,
      unmatched: lines.filter((l) => l.outcome === 'unmatched').length,
    },
    at: now,
  });
  return { statement_id: statement.id, format: STATEMENT_FORMAT, encoding, lines };
}

/**
 * A deposit created by an operator from a transfer to a known customer's virtual account that matched no
 * notice (the customer sent money without filing one, or another amount): with a reason, audited; the
 * deposit is then matched with the transfer and credited through the deposit review like any other.
 */
export async function depositFromTransfer(
  tx: Tx,
  deps: ReconDeps,
  transferId: number,
  reason: string,
  outbox: EventOutbox,
): Promise<{ depositId: number }> {
  const [owner] = await tx
    .select({ userId: bankTransfers.userId })
    .from(bankTransfers)
    .where(eq(bankTransfers.id, transferId));
  if (!owner) throw new AppError('TRANSFER_NOT_FOUND');
  if (owner.userId === null) throw new AppError('TRANSFER_NO_CUSTOMER');
  await lockUser(tx, owner.userId);
  const [transfer] = await tx
    .select()
    .from(bankTransfers)
    .where(eq(bankTransfers.id, transferId))
    .for('update');
  if (!transfer) throw new AppError('TRANSFER_NOT_FOUND');
  if (transfer.status !== 'unmatched') throw new AppError('TRANSFER_NOT_UNMATCHED');
  const userId = owner.userId;
  const now = deps.clock.now();
  const [deposit] = await tx
    .insert(deposits)
    .values({
      userId,
      amount: transfer.amount,
      transferDate: transfer.transferDate,
      transferId: transfer.id,
      createdAt: now,
    })
    .returning();
  if (!deposit) throw new Error('deposit was not written');
  await tx
    .update(bankTransfers)
    .set({ status: 'matched', depositId: deposit.id, note: reason })
    .where(eq(bankTransfers.id, transfer.id));
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'bank_transfer.create_deposit',
    targetType: 'bank_transfer',
    targetId: transfer.id,
    userId,
    reason,
    before: { status: 'unmatched', deposit_id: null },
    after: { status: 'matched', deposit_id: deposit.id, amount: transfer.amount },
    at: now,
  });
  await notify(tx, outbox, userId, 'deposit.filed', { amount: sen(transfer.amount) }, now);
  return { depositId: deposit.id };
}

/** The reading of the customer's name (the newest passed identity), to compare with the payer's name. */
const reading = sql<string | null>`(
  select iv.full_name_kana from ${identityVerifications} iv
  where iv.user_id = ${bankTransfers.userId} and iv.status = 'passed'
  order by iv.id desc limit 1
)`;

export async function listTransfers(
  db: Executor,
  q: { status?: TBankTransfer['status'] | undefined; limit: number; offset: number; id?: number },
): Promise<{ total: number; items: TBankTransfer[] }> {
  const where = and(
    q.status ? eq(bankTransfers.status, q.status) : undefined,
    q.id !== undefined ? eq(bankTransfers.id, q.id) : undefined,
  );
  const [rows, [n]] = await Promise.all([
    db
      .select({ row: bankTransfers, phone: users.phone, reading })
      .from(bankTransfers)
      .leftJoin(users, eq(users.id, bankTransfers.userId))
      .where(where)
      .orderBy(desc(bankTransfers.id))
      .limit(q.limit)
      .offset(q.offset),
    db.select({ n: count() }).from(bankTransfers).where(where),
  ]);
  return {
    total: n?.n ?? 0,
    items: rows.map(({ row, phone, reading: kana }) => ({
      id: row.id,
      statement_id: row.statementId,
      bank_ref: row.bankRef,
      transfer_date: row.transferDate,
      amount: sen(row.amount),
      payer_name: row.payerName,
      virtual_account: row.virtualAccount,
      user_id: row.userId,
      phone,
      payer_is_customer: kana === null ? null : sameAccountHolder(kana, row.payerName),
      status: row.status,
      deposit_id: row.depositId,
      note: row.note,
      created_at: row.createdAt.toISOString(),
    })),
  };
}
