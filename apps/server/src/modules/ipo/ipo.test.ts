import { signInOperator } from '../../test/operators.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sen, yen, type TApplication, type TDrawRecord, type TOffering } from '@kabuto/contract';
import { auditLog, offeringApplications, offerings, positions } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, TEST_NOW, type TestApp } from '../../test/harness.js';
import { fundDemoCash, ledgerHeadMismatches, userBalances } from '../ledger/ledger.js';
import { hasRun } from '../jobs/run-once.js';
import { seedHash, verifyDraw } from './draw.js';
import { OFFERING_JOB, runOfferingSteps } from './job.js';
import { getInstrument } from '../../market/instruments.js';
import { distributionPrice } from './offerings.js';

/**
 * Named scenarios of issue 16 on a fixed clock (TEST_NOW: Tuesday 2026-11-24 10:00 in Tokyo): an IPO from
 * publication to listing under the equal lottery (bid below the offer price, decline to the waiting list,
 * lapse, delivery as a holding), the bad inputs, cancellation, and a distribution's price and fill.
 */
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInOperator(t, 'ipo-admin', 'administrator');
});
afterAll(() => t.close());

const HOUR = 3600_000;
const at = (hours: number) => new Date(Date.parse(TEST_NOW) + hours * HOUR).toISOString();
let keys = 0;
const key = () => ({ 'idempotency-key': `ipo-test-${(keys += 1)}-${Date.now()}` });

async function customer(cashYen = 1_000_000) {
  const u = await registerAndLogin(t);
  await fundDemoCash(t.database.db, u.userId, yen(cashYen), t.clock.now());
  customers.push(u);
  return u;
}

async function publish(extra: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/ipo/offerings?lang=en',
    headers: admin,
    payload: {
      kind: 'ipo',
      code: '999A',
      name: 'Kabuto Robotics',
      issuer: 'Kabuto Robotics K.K.',
      market: 'TSE Growth',
      price_low: yen(1_000),
      price_high: yen(1_200),
      offering_units: 2,
      cap_units: 3,
      window_open: at(-1),
      window_close: at(24),
      draw_at: at(48),
      purchase_deadline: at(96),
      listing_at: at(144),
      ...extra,
    },
  });
  const b = body<TOffering>(res);
  if (b.code !== 1) throw new Error(res.body);
  return b.data;
}

async function apply(token: string, offeringId: number, payload: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/ipo/offerings/${offeringId}/applications?lang=en`,
    headers: { token, ...key() },
    payload,
  });
  return body<TApplication>(res);
}

async function act(token: string, id: number, action: 'withdraw' | 'confirm' | 'decline') {
  return body<TApplication>(
    await t.app.inject({
      method: 'POST',
      url: `/api/ipo/applications/${id}/${action}?lang=en`,
      headers: { token, ...key() },
    }),
  );
}

const customers: Array<{ token: string; phone: string; password: string }> = [];

/** Moves the clock and runs the offering steps; sessions expire over days, so every customer signs in again. */
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

describe('an IPO under the equal lottery, from publication to listing', () => {
  it('runs every state with the money in the ledger', async () => {
    t.clock.set(new Date(TEST_NOW));
    const o = await publish();
    expect(o.phase).toBe('open');
    expect(o.seed).toBeNull();
    expect(o.seed_hash).toMatch(/^[0-9a-f]{64}$/);

    const [a, b, c, d, e] = [
      await customer(),
      await customer(),
      await customer(),
      await customer(),
      await customer(),
    ];
    const unverified = await registerAndLogin(t, { verified: false });

    // bad input: each refused with its own code and nothing written
    expect((await apply(a.token, o.id, { units: 4 })).msg).toMatch(/at most 3 units/);
    expect((await apply(a.token, o.id, { units: 1, bid_price: yen(1_300) })).msg).toMatch(
      /tentative price range/,
    );
    expect((await apply(unverified.token, o.id, { units: 1 })).code).not.toBe(1);
    expect((await apply(a.token, 9999, { units: 1 })).code).toBe(1500);
    const poor = await customer(100_000);
    expect((await apply(poor.token, o.id, { units: 1 })).code).toBe(1504);
    expect((await userBalances(t.database.db, poor.userId)).reserved).toBe(0);
    const noKey = await t.app.inject({
      method: 'POST',
      url: `/api/ipo/offerings/${o.id}/applications`,
      headers: { token: a.token },
      payload: { units: 1 },
    });
    expect(body(noKey).code).not.toBe(1);

    // applications: at the offer price reserve the range's top; a bid reserves the bid
    const appA = await apply(a.token, o.id, { units: 1 });
    expect(appA.code).toBe(1);
    expect(appA.data.reserved).toBe(yen(120_000));
    expect((await apply(a.token, o.id, { units: 1 })).code).toBe(1505);
    const appB = await apply(b.token, o.id, { units: 2, bid_price: yen(1_200) });
    const appC = await apply(c.token, o.id, { units: 1, bid_price: yen(1_000) });
    const appD = await apply(d.token, o.id, { units: 1 });
    const appE = await apply(e.token, o.id, { units: 1 });
    expect([appB.code, appC.code, appD.code, appE.code]).toEqual([1, 1, 1, 1]);
    expect(await userBalances(t.database.db, b.userId)).toMatchObject({
      cash: yen(1_000_000 - 240_000),
      reserved: yen(240_000),
    });

    // withdrawal while open releases the cash; the customer may apply again
    const withdrawn = await act(e.token, appE.data.id, 'withdraw');
    expect(withdrawn.data.state).toBe('withdrawn');
    expect((await userBalances(t.database.db, e.userId)).reserved).toBe(0);
    const appE2 = await apply(e.token, o.id, { units: 1 });
    expect(appE2.code).toBe(1);

    // the offer price is fixed once, inside the range, audited
    const fix = (price: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/console/ipo/offerings/${o.id}/offer-price?lang=en`,
        headers: admin,
        payload: { offer_price: price },
      });
    expect(body(await fix(yen(1_500))).code).toBe(1511);
    expect(body(await fix(yen(1_100))).code).toBe(1);
    expect(body(await fix(yen(1_150))).code).toBe(1511);

    // the close: the list hash is published; applying or withdrawing is refused
    await advanceTo(25);
    const closed = body<TOffering>(
      await t.app.inject({ url: `/api/ipo/offerings/${o.id}`, headers: { token: a.token } }),
    );
    expect(closed.data.phase).toBe('closed');
    expect(closed.data.list_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await apply(poor.token, o.id, { units: 1 })).code).toBe(1501);
    expect((await act(a.token, appA.data.id, 'withdraw')).code).toBe(1508);

    // the draw: C bid below the offer price; A, B, D, E share 2 units one per account (B asked for 2)
    await advanceTo(49);
    await runOfferingSteps(t.database.db, t.clock.now()); // a second pass changes nothing
    expect(await hasRun(t.database.db, OFFERING_JOB, `draw:${o.id}`)).toBe(true);
    const mine = async (token: string, id: number) =>
      body<{ items: TApplication[] }>(
        await t.app.inject({ url: '/api/ipo/applications', headers: { token } }),
      ).data.items.find((x) => x.id === id);
    const cState = await mine(c.token, appC.data.id);
    expect(cState).toMatchObject({ state: 'lost', reason: 'bid_below_offer', reserved: 0 });
    const drawnApps = [
      { u: a, id: appA.data.id },
      { u: b, id: appB.data.id },
      { u: d, id: appD.data.id },
      { u: e, id: appE2.data.id },
    ];
    const states = await Promise.all(
      drawnApps.map(async (x) => ({ ...x, app: await mine(x.u.token, x.id) })),
    );
    const winners = states.filter((x) => x.app?.state === 'won');
    const losers = states.filter((x) => x.app?.state === 'lost');
    expect(winners).toHaveLength(2);
    expect(losers).toHaveLength(2);
    for (const w of winners) {
      expect(w.app).toMatchObject({ won_units: 1, amount_due: yen(110_000), reserved: yen(110_000) });
      expect((await userBalances(t.database.db, w.u.userId)).reserved).toBe(yen(110_000));
    }
    for (const l of losers) {
      expect(l.app).toMatchObject({ reason: 'not_drawn', reserved: 0 });
      expect((await userBalances(t.database.db, l.u.userId)).reserved).toBe(0);
    }

    // the published record verifies, and its seed matches the commitment made at the opening
    const record = body<TDrawRecord>(
      await t.app.inject({ url: `/api/ipo/offerings/${o.id}/draw`, headers: { token: a.token } }),
    ).data;
    expect(record.problems).toEqual([]);
    expect(seedHash(record.seed ?? '')).toBe(o.seed_hash);
    expect(
      verifyDraw({
        ...record,
        seed: record.seed ?? '',
        list_hash: record.list_hash ?? '',
        applications: record.applications.map((x) => ({
          ...x,
          units: x.units + (x.id === appA.data.id ? 1 : 0),
        })),
      }),
    ).toContain('list_hash');
    // nobody can rewrite the draw record
    await expect(
      t.database.db.update(offerings).set({ allocations: [] }).where(eq(offerings.id, o.id)),
    ).rejects.toThrow();

    // the first winner buys; the second declines, and the unit passes to the first loser in drawn order
    const [first, second] = winners as [(typeof winners)[number], (typeof winners)[number]];
    const bought = await act(first.u.token, first.id, 'confirm');
    expect(bought.data).toMatchObject({ state: 'approved', amount_paid: yen(110_000), reserved: 0 });
    expect((await userBalances(t.database.db, first.u.userId)).cash).toBe(yen(1_000_000 - 110_000));
    expect((await act(second.u.token, second.id, 'decline')).data.state).toBe('declined');
    expect((await userBalances(t.database.db, second.u.userId)).reserved).toBe(0);
    const fallbackId = record.order.find((id) => losers.some((l) => l.id === id));
    const fallback = losers.find((l) => l.id === fallbackId);
    expect(await mine(fallback?.u.token ?? '', fallbackId ?? 0)).toMatchObject({
      state: 'won',
      won_units: 1,
    });

    // the deadline: the fallback winner did not confirm, and the win lapses
    await advanceTo(97);
    expect(await mine(fallback?.u.token ?? '', fallbackId ?? 0)).toMatchObject({ state: 'lapsed' });
    expect((await act(first.u.token, first.id, 'confirm')).code).toBe(1509);

    // the listing: the paid shares become a holding at the offer price
    await advanceTo(145);
    const held = await t.database.db.select().from(positions).where(eq(positions.userId, first.u.userId));
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({
      code: '999A',
      quantity: 100,
      avgPrice: yen(1_100),
      bookValue: yen(110_000),
    });
    const listed = body<TOffering>(
      await t.app.inject({ url: `/api/ipo/offerings/${o.id}`, headers: { token: a.token } }),
    );
    expect(listed.data.phase).toBe('listed');

    // no reservation is left behind, and the ledger's heads agree with its postings
    for (const u of [a, b, c, d, e]) expect((await userBalances(t.database.db, u.userId)).reserved).toBe(0);
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
    const actions = (await t.database.db.select().from(auditLog)).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['offering.publish', 'offering.fix_price']));
  });
});

describe('cancellation', () => {
  it('voids every application and releases its cash, audited', async () => {
    t.clock.set(new Date(TEST_NOW));
    const o = await publish({ code: '998A' });
    const u = await customer();
    const app = await apply(u.token, o.id, { units: 2 });
    expect(app.code).toBe(1);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/console/ipo/offerings/${o.id}/cancel?lang=en`,
      headers: admin,
      payload: { reason: 'issuer withdrew the listing' },
    });
    expect(body<TOffering>(res).data.phase).toBe('cancelled');
    expect(await userBalances(t.database.db, u.userId)).toMatchObject({ cash: yen(1_000_000), reserved: 0 });
    const [row] = await t.database.db
      .select()
      .from(offeringApplications)
      .where(eq(offeringApplications.id, app.data.id));
    expect(row).toMatchObject({ state: 'cancelled', reason: 'cancelled' });
    expect((await apply(u.token, o.id, { units: 1 })).code).toBe(1502);
  });
});

describe('access', () => {
  it('answers 401 without a token and keeps one user out of another application', async () => {
    expect((await t.app.inject({ url: '/api/ipo/offerings' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/ipo/applications' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/ipo/applications/1/confirm' })).statusCode).toBe(
      401,
    );
    t.clock.set(new Date(TEST_NOW));
    const o = await publish({ code: '997A' });
    const owner = await customer();
    const other = await customer();
    const app = await apply(owner.token, o.id, { units: 1 });
    expect((await act(other.token, app.data.id, 'withdraw')).code).toBe(1507);
    const users = await registerAndLogin(t);
    const denied = await t.app.inject({
      method: 'POST',
      url: '/api/console/ipo/offerings',
      headers: { authorization: `Bearer ${users.token}` },
      payload: {},
    });
    expect(denied.statusCode).toBe(401);
  });
});

describe('distributions', () => {
  it('prices at the previous close less the discount, rounded down to a tick', () => {
    // ¥3,100 less 2.5% = ¥3,022.5: ¥5 ticks below ¥5,000 give ¥3,020; TOPIX 500's ¥1 ticks give ¥3,022
    expect(distributionPrice(yen(3_100), 250, false)).toBe(yen(3_020));
    expect(distributionPrice(yen(3_100), 250, true)).toBe(yen(3_022));
    expect(distributionPrice(yen(980), 300, false)).toBe(yen(950));
    expect(distributionPrice(sen(98_050), 300, false)).toBe(sen(95_100));
  });

  it('fills everyone when not oversubscribed, at the computed price, as a holding', async () => {
    t.clock.set(new Date(TEST_NOW));
    const quote = t.app.ctx.market.quote('7203');
    expect(quote).toBeDefined();
    const o = await publish({
      kind: 'distribution',
      code: '7203',
      name: 'Toyota Motor',
      issuer: 'Toyota Motor Corporation',
      market: 'TSE Prime',
      price_low: null,
      price_high: null,
      discount_bps: 250,
      purchase_deadline: null,
      offering_units: 100,
      cap_units: 5,
      window_open: at(-1),
      window_close: at(1),
      draw_at: at(2),
      listing_at: at(2),
    });
    expect(o.base_close).toBe(quote?.prev_close);
    expect(o.offer_price).toBe(
      distributionPrice(quote?.prev_close ?? 0, 250, getInstrument('7203')?.is_topix500 ?? false),
    );
    const u = await customer(5_000_000);
    const app = await apply(u.token, o.id, { units: 2 });
    expect(app.code).toBe(1);
    await advanceTo(3);
    const [row] = await t.database.db
      .select()
      .from(offeringApplications)
      .where(eq(offeringApplications.id, app.data.id));
    expect(row).toMatchObject({ state: 'approved', wonUnits: 2, reserved: 0 });
    const held = await t.database.db.select().from(positions).where(eq(positions.userId, u.userId));
    expect(held[0]).toMatchObject({ code: '7203', quantity: 200, avgPrice: o.offer_price });
    expect(await userBalances(t.database.db, u.userId)).toMatchObject({
      cash: yen(5_000_000) - 200 * (o.offer_price ?? 0),
      reserved: 0,
    });
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
  it('fixes the price from the previous close when the window opens, not at the announcement', async () => {
    // announced on Tuesday during the session; applications open on Wednesday at 06:00, before the open
    t.clock.set(new Date(TEST_NOW));
    const o = await publish({
      kind: 'distribution',
      code: '9984',
      name: 'SoftBank Group',
      issuer: 'SoftBank Group Corp.',
      market: 'TSE Prime',
      price_low: null,
      price_high: null,
      discount_bps: 200,
      purchase_deadline: null,
      offering_units: 100,
      cap_units: 5,
      window_open: at(20),
      window_close: at(22),
      draw_at: at(22),
      listing_at: at(23),
    });
    expect(o).toMatchObject({ offer_price: null, base_close: null, discount_bps: 200 });
    const u = await customer(5_000_000);
    expect((await apply(u.token, o.id, { units: 1 })).code).toBe(1501); // OFFERING_NOT_OPEN

    t.clock.set(new Date(at(20)));
    const close = t.app.ctx.market.quote('9984')?.prev_close ?? 0;
    expect(close).toBeGreaterThan(0);
    await runOfferingSteps(t.database.db, t.clock.now(), t.app.ctx.market);
    const [row] = await t.database.db.select().from(offerings).where(eq(offerings.id, o.id));
    const price = distributionPrice(close, 200, getInstrument('9984')?.is_topix500 ?? false);
    expect(row).toMatchObject({ baseClose: close, offerPrice: price });
    const fixed = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'offering.price_fixed'), eq(auditLog.targetId, String(o.id))));
    expect(fixed).toHaveLength(1);
    expect(fixed[0]?.operatorId).toBeNull();
    // a second pass, or an application, writes nothing more
    await runOfferingSteps(t.database.db, t.clock.now(), t.app.ctx.market);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { account: u.phone, password: u.password, agree: true },
    });
    u.token = body<{ token: string }>(signedIn).data.token;
    expect((await apply(u.token, o.id, { units: 1 })).code).toBe(1);
    const again = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'offering.price_fixed'), eq(auditLog.targetId, String(o.id))));
    expect(again).toHaveLength(1);
  });

  it('names what is wrong in the terms in the reader’s language', async () => {
    t.clock.set(new Date(TEST_NOW));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/console/ipo/offerings?lang=ja',
      headers: admin,
      payload: {
        kind: 'ipo',
        code: '997A',
        name: 'Kabuto Foods',
        issuer: 'Kabuto Foods K.K.',
        market: 'TSE Growth',
        price_low: yen(1_000),
        price_high: yen(1_200),
        offering_units: 2,
        cap_units: 3,
        window_open: at(24),
        window_close: at(1),
        draw_at: at(48),
        purchase_deadline: at(96),
        listing_at: at(144),
      },
    });
    expect(body(res)).toMatchObject({
      code: 1510,
      msg: '募集条件に誤りがあります：申込期間の開始は終了より前にしてください',
    });
  });

  it('when oversubscribed, draws one unit per account first, then the rest by the published rule', async () => {
    t.clock.set(new Date(TEST_NOW));
    const o = await publish({
      kind: 'distribution',
      code: '6758',
      name: 'Sony Group',
      issuer: 'Sony Group Corporation',
      market: 'TSE Prime',
      price_low: null,
      price_high: null,
      discount_bps: 300,
      purchase_deadline: null,
      offering_units: 4,
      cap_units: 3,
      window_open: at(-1),
      window_close: at(1),
      draw_at: at(2),
      listing_at: at(2),
    });
    const price = o.offer_price ?? 0;
    expect(price).toBeGreaterThan(0);
    // six units asked for four: every account gets one, the fourth goes to one of the two asking for more
    const asked = [3, 2, 1];
    const users = [];
    for (const units of asked) {
      const u = await customer(10_000_000);
      const res = await apply(u.token, o.id, { units });
      expect(res.code).toBe(1);
      // the customer itself, whose token advanceTo renews
      users.push({ u, applicationId: res.data.id, units });
    }
    await advanceTo(3);
    let total = 0;
    for (const u of users) {
      const [row] = await t.database.db
        .select()
        .from(offeringApplications)
        .where(eq(offeringApplications.id, u.applicationId));
      expect(row).toMatchObject({ state: 'approved', reserved: 0 });
      const won = row?.wonUnits ?? 0;
      expect(won).toBeGreaterThanOrEqual(1);
      expect(won).toBeLessThanOrEqual(u.units);
      total += won;
      const held = await t.database.db.select().from(positions).where(eq(positions.userId, u.u.userId));
      expect(held).toEqual([expect.objectContaining({ code: '6758', quantity: won * 100, avgPrice: price })]);
      expect(await userBalances(t.database.db, u.u.userId)).toMatchObject({
        cash: yen(10_000_000) - won * 100 * price,
        reserved: 0,
      });
    }
    expect(total).toBe(4);
    // the single-unit applicant cannot have received the extra unit
    const [single] = await t.database.db
      .select()
      .from(offeringApplications)
      .where(eq(offeringApplications.id, users[2]?.applicationId ?? 0));
    expect(single?.wonUnits).toBe(1);
    const record = body<TDrawRecord>(
      await t.app.inject({
        method: 'GET',
        url: `/api/ipo/offerings/${o.id}/draw`,
        headers: { token: users[0]?.u.token ?? '' },
      }),
    ).data;
    expect(record.problems).toEqual([]);
    expect(record.allocations.reduce((sum, a) => sum + a.units, 0)).toBe(4);
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
