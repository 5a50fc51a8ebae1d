import { signInOperator } from '../../test/operators.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yen, type TApplication, type TNisaQuota, type TOffering, type TPosition } from '@kabuto/contract';
import { brokerageAccounts, messages, positions } from '../../db/schema.js';
import { setListedInstruments } from '../../market/instruments.js';
import { body, createTestApp, registerAndLogin, TEST_NOW, type TestApp } from '../../test/harness.js';
import { fundDemoCash } from '../ledger/ledger.js';
import { runOfferingSteps } from './job.js';

/**
 * NISA at listing (issue 16, ADR 0035), on a fixed clock (TEST_NOW: Tuesday 2026-11-24 10:00 in Tokyo). The
 * applicant chooses the account the shares go into (default: their default account); NISA takes the amount
 * from the growth quota at application and is checked again at listing; when the quota no longer fits then,
 * the shares go to 特定 and a message says so. A NISA application the quota cannot take is refused, and so is
 * NISA for a customer without a NISA account.
 */
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInOperator(t, 'nisa-admin', 'administrator');
});
afterAll(async () => {
  setListedInstruments([]);
  await t.close();
});

const HOUR = 3600_000;
const at = (hours: number) => new Date(Date.parse(TEST_NOW) + hours * HOUR).toISOString();
let keys = 0;
const key = () => ({ 'idempotency-key': `nisa-ipo-${(keys += 1)}-${Date.now()}` });
type Customer = Awaited<ReturnType<typeof registerAndLogin>>;
const customers: Customer[] = [];

async function customer(options: { nisa: boolean; default: 'specific' | 'nisa' }) {
  const u = await registerAndLogin(t);
  const account = {
    specificAccount: 'withholding' as const,
    nisaOpenedAt: options.nisa ? t.clock.now() : null,
    defaultTaxAccount: options.default,
    openedAt: t.clock.now(),
  };
  await t.database.db
    .insert(brokerageAccounts)
    .values({ userId: u.userId, ...account })
    .onConflictDoUpdate({ target: brokerageAccounts.userId, set: account });
  await fundDemoCash(t.database.db, u.userId, yen(1_000_000), t.clock.now());
  customers.push(u);
  return u;
}

async function publish(code: string): Promise<TOffering> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/ipo/offerings?lang=en',
    headers: admin,
    payload: {
      kind: 'ipo',
      code,
      name: `NISA ${code}`,
      issuer: `NISA ${code} K.K.`,
      market: 'TSE Growth',
      price_low: yen(1_000),
      price_high: yen(1_200),
      offering_units: 10,
      cap_units: 3,
      window_open: at(-1),
      window_close: at(24),
      draw_at: at(48),
      purchase_deadline: at(96),
      listing_at: at(144),
    },
  });
  const b = body<TOffering>(res);
  expect(b.code, res.body).toBe(1);
  const fixed = await t.app.inject({
    method: 'POST',
    url: `/api/console/ipo/offerings/${b.data.id}/offer-price?lang=en`,
    headers: admin,
    payload: { offer_price: yen(1_100) },
  });
  expect(body(fixed).code).toBe(1);
  return b.data;
}

const apply = async (u: Customer, offeringId: number, payload: Record<string, unknown>) =>
  body<TApplication>(
    await t.app.inject({
      method: 'POST',
      url: `/api/ipo/offerings/${offeringId}/applications?lang=en`,
      headers: { token: u.token, ...key() },
      payload,
    }),
  );
const quota = async (u: Customer) =>
  body<TNisaQuota>(await t.app.inject({ url: '/api/tax/nisa', headers: { token: u.token } })).data;

async function advanceTo(hours: number) {
  t.clock.set(new Date(at(hours)));
  await runOfferingSteps(t.database.db, t.clock.now());
  for (const u of customers) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { account: u.phone, password: u.password, agree: true },
    });
    u.token = body<{ token: string }>(res).data.token;
  }
}

const confirm = async (u: Customer, id: number) =>
  body<TApplication>(
    await t.app.inject({
      method: 'POST',
      url: `/api/ipo/applications/${id}/confirm?lang=en`,
      headers: { token: u.token, ...key() },
    }),
  );
const holdings = async (u: Customer) =>
  body<TPosition[]>(
    await t.app.inject({ url: '/api/trade/positions?status=holding', headers: { token: u.token } }),
  ).data;

describe('NISA at listing', () => {
  it('reserves the quota at application, delivers into NISA, or into 特定 with a message when it no longer fits', async () => {
    t.clock.set(new Date(TEST_NOW));
    const o = await publish('995A');
    // the default account is NISA: the application goes there and takes its amount from the quota
    const fits = await customer({ nisa: true, default: 'nisa' });
    const before: TNisaQuota = await quota(fits);
    const a1 = await apply(fits, o.id, { units: 1 });
    expect(a1).toMatchObject({ code: 1, data: { account: 'nisa', reserved: yen(110_000) } });
    const reservedQuota = await quota(fits);
    expect(reservedQuota.annual_used).toBe(before.annual_used + yen(110_000));
    expect(reservedQuota.lifetime_used).toBe(before.lifetime_used + yen(110_000));

    // chosen NISA; after applying, other NISA holdings fill the growth quota (book value up to its limit)
    const squeezed = await customer({ nisa: true, default: 'specific' });
    const a2 = await apply(squeezed, o.id, { units: 1, account: 'nisa' });
    expect(a2.data.account).toBe('nisa');
    // chosen 特定 by a NISA holder: stays there
    const taxable = await customer({ nisa: true, default: 'nisa' });
    const a3 = await apply(taxable, o.id, { units: 1, account: 'specific' });
    expect(a3.data.account).toBe('specific');
    expect((await quota(taxable)).annual_used).toBe(before.annual_used);

    // bad input: NISA without a NISA account; NISA beyond the quota (nothing reserved)
    const noNisa = await customer({ nisa: false, default: 'specific' });
    expect((await apply(noNisa, o.id, { units: 1, account: 'nisa' })).code).toBe(1251);
    const full = await customer({ nisa: true, default: 'nisa' });
    await t.database.db.insert(positions).values({
      userId: full.userId,
      code: '7203',
      direction: 'long',
      leverage: 1,
      taxAccount: 'nisa',
      marginType: 'cash',
      bookValue: before.growth_lifetime_limit - yen(50_000),
      status: 'holding',
      quantity: 100,
      avgPrice: before.growth_lifetime_limit / 100 - yen(500),
      openedAt: t.clock.now(),
    });
    const refused = await apply(full, o.id, { units: 1 });
    expect(refused.code).toBe(1254);
    expect((await quota(full)).lifetime_used).toBe(before.growth_lifetime_limit - yen(50_000));

    await t.database.db.insert(positions).values({
      userId: squeezed.userId,
      code: '7203',
      direction: 'long',
      leverage: 1,
      taxAccount: 'nisa',
      marginType: 'cash',
      bookValue: before.growth_lifetime_limit - yen(50_000),
      status: 'holding',
      quantity: 100,
      avgPrice: before.growth_lifetime_limit / 100 - yen(500),
      openedAt: t.clock.now(),
    });

    // the draw (not oversubscribed), the purchases, the listing
    await advanceTo(25);
    await advanceTo(49);
    for (const [u, a] of [
      [fits, a1],
      [squeezed, a2],
      [taxable, a3],
    ] as const) {
      expect((await confirm(u, a.data.id)).data.state).toBe('approved');
    }
    await advanceTo(145);

    const inNisa = (await holdings(fits)).find((p) => p.code === '995A');
    expect(inNisa).toMatchObject({ account: 'nisa', quantity: 100 });
    // delivered: the year's quota counts what was paid, no longer the reservation
    expect((await quota(fits)).annual_used).toBe(before.annual_used + yen(110_000));

    const movedOut = (await holdings(squeezed)).find((p) => p.code === '995A');
    expect(movedOut).toMatchObject({ account: 'specific', quantity: 100 });
    const told = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, squeezed.userId), eq(messages.kind, 'offering.nisa_fallback')));
    expect(told).toHaveLength(1);
    const mine = body<{ items: TApplication[] }>(
      await t.app.inject({ url: '/api/ipo/applications', headers: { token: squeezed.token } }),
    ).data.items.find((x) => x.id === a2.data.id);
    expect(mine?.account).toBe('specific');

    expect((await holdings(taxable)).find((p) => p.code === '995A')).toMatchObject({ account: 'specific' });
  });
});
