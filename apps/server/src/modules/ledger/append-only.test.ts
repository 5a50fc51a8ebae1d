import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negSen, sen } from '@kabuto/contract';
import { createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { audit } from '../console/audit.js';
import { lockUser, postEntry } from './ledger.js';

/**
 * The database itself refuses to change the ledger and the audit log (migrations 0005 and 0007): no code
 * path, console route or stray script can edit a posting, an entry or an audit row, or empty the tables.
 * Corrections are new, reversing entries.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const { userId } = await registerAndLogin(t, { verified: false });
  const at = new Date('2026-11-24T01:00:00.000Z');
  await t.database.db.transaction(async (tx) => {
    await lockUser(tx, userId);
    await postEntry(tx, {
      kind: 'demo_funding',
      params: {},
      at,
      lines: [
        { user: userId, account: 'cash', amount: sen(100_000) },
        { house: 'demo_funding', amount: negSen(sen(100_000)) },
      ],
    });
    await audit(tx, {
      operatorId: null,
      action: 'user.view',
      targetType: 'user',
      targetId: userId,
      userId,
      at,
    });
  });
});
afterAll(async () => {
  await t.close();
});

async function refused(statement: SQL): Promise<string> {
  try {
    await t.database.db.execute(statement);
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return (cause as Error | undefined)?.message ?? (error as Error).message;
  }
  throw new Error('the statement was allowed');
}

async function count(table: string): Promise<number> {
  const result = (await t.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as {
    rows: { n: number }[];
  };
  return result.rows[0]?.n ?? 0;
}

describe('append-only tables', () => {
  it.each(['postings', 'journal_entries', 'audit_log'])(
    '%s refuses UPDATE, DELETE and TRUNCATE',
    async (table) => {
      const before = await count(table);
      expect(before).toBeGreaterThan(0);
      const column = table === 'audit_log' ? 'action' : table === 'postings' ? 'amount' : 'kind';
      const value = table === 'postings' ? '0' : "'edited'";
      expect(await refused(sql.raw(`update ${table} set ${column} = ${value}`))).toMatch(/append-only/);
      expect(await refused(sql.raw(`delete from ${table}`))).toMatch(/append-only/);
      expect(await refused(sql.raw(`truncate ${table} cascade`))).toMatch(/append-only/);
      expect(await count(table)).toBe(before);
    },
  );
});
