import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLedgerLine } from '@kabuto/contract';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { parseStatement, verifyStatement } from './statement.js';

let t: TestApp;
let alice: { token: string; userId: number };
let bob: { token: string; userId: number };
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' }, undefined, {
    market: (clock) => {
      const m = new TestMarket(clock);
      m.set('7203', 3100);
      return m;
    },
  });
  alice = await registerAndLogin(t);
  bob = await registerAndLogin(t);
  for (const who of [alice, bob]) {
    for (const quantity of [100, 200]) {
      await t.app.inject({
        method: 'POST',
        url: '/api/trade/placeOrder',
        payload: {
          code: '7203',
          direction: 'long',
          price_type: 'limit',
          price: 300_000,
          quantity,
          leverage: 1,
        },
        headers: { token: who.token, 'idempotency-key': randomUUID() },
      });
    }
  }
});
afterAll(() => t.close());

async function statement(token: string, lang = 'en'): Promise<string> {
  const res = await t.app.inject({ url: `/api/ledger/statement?lang=${lang}`, headers: { token } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  expect(res.headers['content-disposition']).toContain('attachment');
  return res.body;
}
async function verify(token: string, csv: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ledger/verifyStatement?lang=en',
    payload: csv,
    headers: { token, 'content-type': 'text/csv' },
  });
  return body<{ valid: boolean; lines: number; first_bad_line: number | null; problem: string | null }>(res);
}

describe('the transaction log', () => {
  it('lists every movement newest first with the running balance of its account', async () => {
    const page = body<{ total: number; items: TLedgerLine[] }>(
      await t.app.inject({ url: '/api/ledger/entries', headers: { token: alice.token } }),
    ).data;
    // demo cash (1 line), two reservations (2 lines each)
    expect(page.total).toBe(5);
    expect(page.items.map((l) => l.seq)).toEqual([5, 4, 3, 2, 1]);
    const cash = page.items.filter((l) => l.account === 'cash').map((l) => l.balance);
    expect(cash).toEqual([10_000_000_00 - 90_000_000, 10_000_000_00 - 30_000_000, 10_000_000_00]);
    const reserved = page.items.filter((l) => l.account === 'reserved').map((l) => l.balance);
    expect(reserved).toEqual([90_000_000, 30_000_000]);
    const filtered = body<{ total: number; items: TLedgerLine[] }>(
      await t.app.inject({ url: '/api/ledger/entries?kind=demo_funding', headers: { token: alice.token } }),
    ).data;
    expect(filtered.items.map((l) => l.kind)).toEqual(['demo_funding']);
    const bad = await t.app.inject({
      url: '/api/ledger/entries?from=24-11-2026&lang=en',
      headers: { token: alice.token },
    });
    expect(body(bad).msg).toBe('Use a date such as 2026-11-24');
  });
});

describe('statements', () => {
  it('downloads in the user’s language and verifies against the ledger', async () => {
    const ja = await statement(alice.token, 'jp');
    expect(ja.split('\r\n')[0]).toContain('残高（円）');
    expect(ja).toContain('デモ資金');
    const csv = await statement(alice.token);
    expect(await verify(alice.token, csv)).toMatchObject({
      data: { valid: true, lines: 5, first_bad_line: null },
    });
  });

  it('detects a changed, a removed and a reordered line, and another account’s statement', async () => {
    const csv = await statement(alice.token);
    const rows = csv.replace(/\r\n$/, '').split('\r\n');
    const changed = [...rows];
    changed[2] = (changed[2] ?? '').replace(/,-300000\.00,/, ',-30.00,');
    expect(changed[2]).not.toBe(rows[2]);
    expect((await verify(alice.token, changed.join('\r\n'))).data).toMatchObject({
      valid: false,
      first_bad_line: 2,
      problem: 'hash',
    });
    const removed = rows.filter((_, i) => i !== 2);
    expect((await verify(alice.token, removed.join('\r\n'))).data).toMatchObject({
      valid: false,
      first_bad_line: 2,
    });
    const reordered = [rows[0], rows[2], rows[1], ...rows.slice(3)];
    expect((await verify(alice.token, reordered.join('\r\n'))).data).toMatchObject({
      valid: false,
      first_bad_line: 2,
    });
    const bobs = await statement(bob.token);
    expect((await verify(alice.token, bobs)).data).toMatchObject({ valid: false, problem: 'not_in_ledger' });
    expect((await verify(alice.token, 'not,a,statement')).code).toBe(1212);
  });

  it('verifies a period on its own (the command line check needs no server)', async () => {
    const lines = parseStatement(await statement(alice.token));
    expect(lines).not.toBeNull();
    expect(verifyStatement(lines?.slice(2) ?? [])).toMatchObject({ valid: true, lines: 3 });
  });
});

describe('the verify-statement command', () => {
  it('accepts an intact statement and rejects a tampered one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kabuto-statement-'));
    const good = join(dir, 'good.csv');
    const csv = await statement(alice.token);
    writeFileSync(good, csv);
    const tampered = join(dir, 'tampered.csv');
    writeFileSync(tampered, csv.replace(',-300000.00,', ',-3.00,'));
    const script = fileURLToPath(new URL('../../scripts/verify-statement.ts', import.meta.url));
    const run = (file: string) =>
      execFileSync(process.execPath, ['--conditions=@kabuto/source', '--import', 'tsx', script, file], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    expect(run(good)).toContain('valid, 5 lines');
    expect(() => run(tampered)).toThrow(/INVALID at line 2 \(hash\)/);
  });
});
