import { signInOperator } from '../../test/operators.js';
import { readFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yen } from '@kabuto/contract';
import { auditLog, bankStatements, bankTransfers, deposits, identityVerifications } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { userBalances } from '../ledger/ledger.js';
import { parseStatement, splitCsvLine } from './statement-file.js';

/**
 * Deposit reconciliation (ADR 0023) with the fixture statements of ./fixtures, on a fixed clock
 * (TEST_NOW, 2026-11-24 10:00 Tokyo). The first two users of this fresh database are users 1 and 2, whose
 * virtual accounts (prefix 9) are 9000001 and 9000002: the fixtures name them.
 */
let t: TestApp;
let u1: Awaited<ReturnType<typeof registerAndLogin>>;
let u2: Awaited<ReturnType<typeof registerAndLogin>>;
let op1: Record<string, string>;
let op2: Record<string, string>;

const operator = (username: string) => signInOperator(t, username);

beforeAll(async () => {
  t = await createTestApp();
  u1 = await registerAndLogin(t);
  u2 = await registerAndLogin(t);
  expect([u1.userId, u2.userId]).toEqual([1, 2]);
  await t.database.db
    .update(identityVerifications)
    .set({ fullNameKana: 'ヤマダ タロウ' })
    .where(eq(identityVerifications.userId, 1));
  op1 = await operator('recon1');
  op2 = await operator('recon2');
});
afterAll(() => t.close());

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const post = (url: string, headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'POST', url: `${url}?lang=en`, headers, payload });
const importFile = (name: string, headers = op1, bytes = fixture(name)) =>
  post('/api/console/reconciliation/statements', headers, {
    filename: name,
    content_base64: bytes.toString('base64'),
  });
let keys = 0;
const notice = async (token: string, amountYen: number, date = '2026-11-24') => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/deposits?lang=en',
    headers: { token, 'idempotency-key': `recon-test-${(keys += 1)}` },
    payload: { amount: yen(amountYen), transfer_date: date },
  });
  expect(body(res).code, res.body).toBe(1);
  return body<{ id: number }>(res).data.id;
};
const cash = async (userId: number) => (await userBalances(t.database.db, userId)).cash;
const rows = async () => ({
  statements: (await t.database.db.select({ n: count() }).from(bankStatements))[0]?.n,
  transfers: (await t.database.db.select({ n: count() }).from(bankTransfers))[0]?.n,
});
type Line = {
  line: number;
  bank_ref: string;
  outcome: string;
  error: string | null;
  deposit_id: number | null;
};

describe('the statement file', () => {
  it('splits quoted CSV fields', () => {
    expect(splitCsvLine('a,"1,000","say ""hi""",')).toEqual(['a', '1,000', 'say "hi"', '']);
    expect(splitCsvLine('a,"open')).toBeNull();
  });

  it('reports each line: the column at fault', () => {
    const lines = parseStatement(fixture('partial.csv').toString('utf8'));
    expect(lines.map((l) => [l.line, l.ok ? 'ok' : l.error])).toEqual([
      [2, 'ok'],
      [3, 'amount'],
      [4, 'transfer_date'],
      [6, 'virtual_account'],
      [7, 'repeated_in_file'],
      [8, 'columns'],
    ]);
  });

  it('refuses a file without the header', async () => {
    const res = await importFile('x.csv', op1, Buffer.from('R1,2026-11-24,100,ﾔﾏﾀﾞ,9000001\n'));
    expect(body(res)).toMatchObject({ code: 1345 });
  });
});

describe('importing statements', () => {
  it('good: matches each transfer to the oldest pending notice of its amount; crediting grows the cash', async () => {
    const older = await notice(u1.token, 50_000);
    const newer = await notice(u1.token, 50_000);
    const other = await notice(u2.token, 120_000);
    const res = await importFile('good.csv');
    expect(body(res).code, res.body).toBe(1);
    const result = body<{ encoding: string; lines: Line[] }>(res).data;
    expect(result.encoding).toBe('utf-8');
    expect(result.lines.map((l) => [l.line, l.bank_ref, l.outcome, l.deposit_id])).toEqual([
      [2, 'R20261124-0001', 'matched', older],
      [3, 'R20261124-0002', 'matched', other],
    ]);
    const [d] = await t.database.db.select().from(deposits).where(eq(deposits.id, older));
    expect(d?.transferId).not.toBeNull();
    const [n] = await t.database.db.select().from(deposits).where(eq(deposits.id, newer));
    expect(n?.transferId).toBeNull();

    // Matched: the listing shows them with the payer's name checked against the customer's reading: u1's is
    // ヤマダ タロウ like the payer's; u2 applied as ヤマダ タロウ too (the harness's reading), so the payer
    // ｽｽﾞｷ ﾊﾅｺ is flagged for the operator to look at.
    const listed = body<{ items: { id: number; status: string; payer_is_customer: boolean | null }[] }>(
      await t.app.inject({ url: '/api/console/reconciliation/transfers?status=matched', headers: op1 }),
    ).data.items;
    expect(listed.map((i) => i.payer_is_customer).sort()).toEqual([false, true]);

    // One click per matched item (the deposit queue) or a batch: each credited once, each audited.
    const before1 = await cash(1);
    const before2 = await cash(2);
    const credit = await post('/api/console/reconciliation/credit', op2, {
      transfer_ids: listed.map((i) => i.id).concat(listed.map((i) => i.id)),
    });
    expect(body<{ items: { outcome: string }[] }>(credit).data.items.map((i) => i.outcome)).toEqual([
      'credited',
      'credited',
      'TRANSFER_NOT_MATCHED',
      'TRANSFER_NOT_MATCHED',
    ]);
    expect((await cash(1)) - before1).toBe(yen(50_000));
    expect((await cash(2)) - before2).toBe(yen(120_000));
    const credited = await t.database.db
      .select()
      .from(bankTransfers)
      .where(eq(bankTransfers.status, 'credited'));
    expect(credited).toHaveLength(2);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'deposit.approve'));
    expect(audits.filter((a) => a.targetId === String(older))).toHaveLength(1);
  });

  it('duplicate: the same file is refused; an overlapping file skips what was imported', async () => {
    const again = await importFile('good.csv');
    expect(body(again)).toMatchObject({ code: 1344 });
    const res = await importFile('overlap.csv');
    expect(body<{ lines: Line[] }>(res).data.lines.map((l) => [l.bank_ref, l.outcome])).toEqual([
      ['R20261124-0002', 'duplicate'],
      ['R20261125-0003', 'unmatched'],
    ]);
  });

  it('partial: a file with bad lines is refused whole, with what is wrong on each line; nothing is written', async () => {
    const before = await rows();
    const res = await importFile('partial.csv');
    expect(body(res)).toMatchObject({
      code: 1346,
      msg: '5 lines of this file are invalid: nothing was imported. Fix them and import the file again',
    });
    const lines = body<{ lines: Line[] }>(res).data.lines;
    expect(lines.map((l) => [l.line, l.outcome, l.error])).toEqual([
      [2, 'unmatched', null],
      [3, 'invalid', 'amount'],
      [4, 'invalid', 'transfer_date'],
      [6, 'invalid', 'virtual_account'],
      [7, 'invalid', 'repeated_in_file'],
      [8, 'invalid', 'columns'],
    ]);
    expect(await rows()).toEqual(before);
    // corrected, it is a new file and imports
    const fixed = Buffer.from(
      'bank_ref,transfer_date,amount,payer_name,virtual_account\nR20261125-0010,2026-11-25,10000,ﾔﾏﾀﾞ ﾀﾛｳ,9000001\n',
    );
    expect(body(await importFile('partial-fixed.csv', op1, fixed)).code).toBe(1);
  });

  it('unknown account: listed as unmatched with no customer; no deposit can be made from it', async () => {
    const res = await importFile('unknown-account.csv');
    const lines = body<{ lines: (Line & { user_id: number | null; transfer_id: number })[] }>(res).data.lines;
    expect(lines.map((l) => [l.outcome, l.user_id])).toEqual([
      ['unmatched', null],
      ['unmatched', null],
    ]);
    const made = await post(`/api/console/reconciliation/transfers/${lines[0]?.transfer_id}/deposit`, op1, {
      reason: 'customer called',
    });
    expect(body(made)).toMatchObject({ code: 1349 });
  });

  it('wrong amount: unmatched but the customer is known; an operator makes the deposit with a reason, then credits it', async () => {
    const filed = await notice(u1.token, 50_000);
    const res = await importFile('wrong-amount.csv');
    const [line] = body<{ lines: (Line & { user_id: number | null; transfer_id: number })[] }>(res).data
      .lines;
    expect(line).toMatchObject({ outcome: 'unmatched', user_id: 1, deposit_id: null });
    const noReason = await post(
      `/api/console/reconciliation/transfers/${line?.transfer_id}/deposit`,
      op1,
      {},
    );
    expect(body(noReason).code).toBe(400);
    const made = await post(`/api/console/reconciliation/transfers/${line?.transfer_id}/deposit`, op1, {
      reason: 'Customer confirmed by phone: sent ¥49,999 after a ¥1 bank fee',
    });
    const depositId = body<{ deposit_id: number }>(made).data.deposit_id;
    expect(depositId).toBeGreaterThan(filed);
    const again = await post(`/api/console/reconciliation/transfers/${line?.transfer_id}/deposit`, op1, {
      reason: 'twice',
    });
    expect(body(again)).toMatchObject({ code: 1348 });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'bank_transfer.create_deposit'));
    expect(audit?.reason).toBe('Customer confirmed by phone: sent ¥49,999 after a ¥1 bank fee');
    const before = await cash(1);
    // matched with a transfer: one approval credits it
    const approved = await post(`/api/console/deposits/${depositId}/approve`, op1, {});
    expect(body(approved)).toMatchObject({ code: 1, data: { status: 'approved' } });
    expect((await cash(1)) - before).toBe(yen(49_999));
    // the customer's own notice of 50,000 is still pending, unmatched
    const [still] = await t.database.db.select().from(deposits).where(eq(deposits.id, filed));
    expect(still).toMatchObject({ status: 'pending', transferId: null });
  });

  it('reads a Shift_JIS file with the Japanese header', async () => {
    const id = await notice(u2.token, 80_000);
    const res = await importFile('shift-jis.csv');
    expect(body<{ encoding: string; lines: Line[] }>(res).data).toMatchObject({
      encoding: 'shift_jis',
      lines: [{ bank_ref: 'R20261127-0040', outcome: 'matched', deposit_id: id }],
    });
  });
});

describe('approving a deposit with no matching transfer', () => {
  it('needs a reason and a second, different operator', async () => {
    const id = await notice(u2.token, 33_000);
    const before = await cash(2);
    const url = `/api/console/deposits/${id}/approve`;
    expect(body(await post(url, op1, {}))).toMatchObject({ code: 1343 });
    expect(body(await post(url, op1, { reason: 'Seen on the bank’s web screen' }))).toMatchObject({
      code: 1,
      data: { status: 'awaiting_second_approval' },
    });
    expect(await cash(2)).toBe(before);
    expect(body(await post(url, op1, { reason: 'again' }))).toMatchObject({ code: 1342 });
    expect(body(await post(url, op2, {}))).toMatchObject({ code: 1343 });
    expect(body(await post(url, op2, { reason: 'Checked the bank’s record too' }))).toMatchObject({
      code: 1,
      data: { status: 'approved' },
    });
    expect((await cash(2)) - before).toBe(yen(33_000));
    const item = body<{ first_approved_by: string | null; transfer_id: number | null; reviewed_by: string }>(
      await t.app.inject({ url: `/api/console/deposits/${id}`, headers: op1 }),
    ).data;
    expect(item).toMatchObject({ first_approved_by: 'recon1', reviewed_by: 'recon2', transfer_id: null });
    const trail = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(id)));
    expect(trail.filter((a) => a.targetType === 'deposit').map((a) => [a.action, a.reason])).toEqual([
      ['deposit.approve_first', 'Seen on the bank’s web screen'],
      ['deposit.approve', 'Checked the bank’s record too'],
    ]);
  });

  it('a rejected matched deposit frees its transfer', async () => {
    const id = await notice(u1.token, 12_300);
    const file = Buffer.from(
      'bank_ref,transfer_date,amount,payer_name,virtual_account\nR20261128-0050,2026-11-24,12300,ﾀﾆﾝ,9000001\n',
    );
    const [line] = body<{ lines: (Line & { transfer_id: number })[] }>(
      await importFile('third-party.csv', op1, file),
    ).data.lines;
    expect(line).toMatchObject({ outcome: 'matched', deposit_id: id });
    await post(`/api/console/deposits/${id}/reject`, op1, { reason: 'Paid by a third party' });
    const [transfer] = await t.database.db
      .select()
      .from(bankTransfers)
      .where(eq(bankTransfers.id, line?.transfer_id ?? 0));
    expect(transfer).toMatchObject({ status: 'unmatched', depositId: null });
  });
});

describe('reconciliation routes', () => {
  it('need an operator', async () => {
    for (const [method, url] of [
      ['GET', '/api/console/reconciliation/transfers'],
      ['POST', '/api/console/reconciliation/statements'],
      ['POST', '/api/console/reconciliation/credit'],
      ['POST', '/api/console/reconciliation/transfers/1/deposit'],
    ] as const) {
      expect((await t.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
      expect(
        (await t.app.inject({ method, url, headers: { token: u1.token }, payload: {} })).statusCode,
      ).toBe(401);
    }
  });
});
