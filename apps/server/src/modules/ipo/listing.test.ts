import { signInOperator } from '../../test/operators.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yen, type TApplication, type TOffering, type TOrder, type TPosition } from '@kabuto/contract';
import { getInstrument, setListedInstruments } from '../../market/instruments.js';
import { firstDayBar } from '../../market/listing.js';
import { stockGrid } from '../../market/price-grid.js';
import { MarketSimulator } from '../../market/simulator.js';
import { body, createTestApp, registerAndLogin, TEST_NOW, type TestApp } from '../../test/harness.js';
import { fundDemoCash, ledgerHeadMismatches } from '../ledger/ledger.js';
import { offeringJob } from './job.js';
import { loadListings } from './listings.js';

/**
 * A listed IPO trades in the simulator (issue 16, ADR 0035), on a fixed clock (TEST_NOW: Tuesday 2026-11-24
 * 10:00 in Tokyo). The offering job draws, lapses and lists; after the draw every process knows the listing
 * (name and terms) but the stock has no quote until its listing day's opening auction; on the listing day
 * (Monday 2026-11-30) the delivered holding carries the issuer's name, the quote's base is the offer price,
 * its open is the first-day rule's, and part of the holding sells at the simulator's board with its P&L. A
 * restart (a fresh simulator and instrument list loaded from the database) quotes the same price.
 */
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInOperator(t, 'listing-admin', 'administrator');
});
afterAll(async () => {
  setListedInstruments([]);
  await t.close();
});

const HOUR = 3600_000;
const at = (hours: number) => new Date(Date.parse(TEST_NOW) + hours * HOUR).toISOString();
let keys = 0;
const key = () => ({ 'idempotency-key': `listing-test-${(keys += 1)}-${Date.now()}` });

describe('a listed IPO in the simulated market', () => {
  it('is quoted from its listing day at the first-day rule, and the holding sells there with its P&L', async () => {
    t.clock.set(new Date(TEST_NOW));
    const u = await registerAndLogin(t);
    await fundDemoCash(t.database.db, u.userId, yen(1_000_000), t.clock.now());
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/console/ipo/offerings?lang=en',
      headers: admin,
      payload: {
        kind: 'ipo',
        code: '996C',
        name: 'Kabuto Listing',
        issuer: 'Kabuto Listing K.K.',
        market: '東証グロース',
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
    const o = body<TOffering>(published).data;
    const applied = body<TApplication>(
      await t.app.inject({
        method: 'POST',
        url: `/api/ipo/offerings/${o.id}/applications?lang=en`,
        headers: { token: u.token, ...key() },
        payload: { units: 2 },
      }),
    );
    expect(applied.code).toBe(1);
    const fixed = await t.app.inject({
      method: 'POST',
      url: `/api/console/ipo/offerings/${o.id}/offer-price?lang=en`,
      headers: admin,
      payload: { offer_price: yen(1_100) },
    });
    expect(body(fixed).code).toBe(1);

    const deps = { clock: t.clock, market: t.app.ctx.market, fees: t.app.ctx.fees, locale: 'en' };
    const signIn = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { account: u.phone, password: u.password, agree: true },
      });
      u.token = body<{ token: string }>(res).data.token;
    };
    const step = async (hours: number) => {
      t.clock.set(new Date(at(hours)));
      await offeringJob.run(t.app, deps);
      await signIn();
    };

    // before the draw the code is nobody's instrument
    await step(25);
    expect(getInstrument('996C')).toBeUndefined();
    // the draw (not oversubscribed: both units) reveals the seed; the listing is known, not yet quoted
    await step(49);
    expect(getInstrument('996C')?.name_ja).toBe('Kabuto Listing');
    expect(t.app.ctx.market.quote('996C')).toBeUndefined();
    const confirm = body<TApplication>(
      await t.app.inject({
        method: 'POST',
        url: `/api/ipo/applications/${applied.data.id}/confirm?lang=en`,
        headers: { token: u.token, ...key() },
      }),
    );
    expect(confirm.data).toMatchObject({ state: 'approved', won_units: 2 });
    await step(97);
    // the Friday before the listing: still no quote, and an order for it is refused with NO_MARKET_DATA
    t.clock.set(new Date(at(72 + 24)));
    await signIn();
    expect(t.app.ctx.market.quote('996C')).toBeUndefined();
    const early = body(
      await t.app.inject({
        method: 'POST',
        url: '/api/trade/placeOrder?lang=en',
        headers: { token: u.token, ...key() },
        payload: { code: '996C', direction: 'long', price_type: 'market', quantity: 100, leverage: 1 },
      }),
    );
    expect(early.code).toBe(1102);

    // Monday 2026-11-30 11:00 in Tokyo, the listing day: the holding, quoted from the offer price
    await step(145);
    const revealed = body<TOffering>(
      await t.app.inject({ url: `/api/ipo/offerings/${o.id}`, headers: { token: u.token } }),
    ).data;
    expect(revealed.seed).toMatch(/^[0-9a-f]{64}$/);
    const first = firstDayBar(
      {
        code: '996C',
        name: 'Kabuto Listing',
        offeringId: o.id,
        seed: revealed.seed ?? '',
        offerPrice: yen(1_100),
        listingDate: '2026-11-30',
        offeredShares: 1_000,
      },
      stockGrid(false),
    );
    const quote = t.app.ctx.market.quote('996C');
    expect(quote).toMatchObject({
      prev_close: yen(1_100),
      open: first.open,
      trading_date: '2026-11-30',
      simulated: true,
    });
    const holdings = body<TPosition[]>(
      await t.app.inject({ url: '/api/trade/positions?status=holding&lang=en', headers: { token: u.token } }),
    ).data;
    const holding = holdings.find((p) => p.code === '996C');
    expect(holding).toMatchObject({ name: 'Kabuto Listing', quantity: 200, avg_price: yen(1_100) });

    // the stock's page: its quote and the disclosed basis of its simulated prices
    const detail = body<{ name: string; quote: { last: number } | null; price_basis: string }>(
      await t.app.inject({ url: '/api/market/stock?code=996C&lang=en', headers: { token: u.token } }),
    ).data;
    expect(detail).toMatchObject({ name: 'Kabuto Listing', price_basis: 'ipo' });
    expect(detail.quote?.last).toBe(quote?.last);

    // a restart: a fresh simulator and instrument list, loaded from the database, quote the same
    setListedInstruments([]);
    expect(getInstrument('996C')).toBeUndefined();
    const fresh = new MarketSimulator({ clock: t.clock, mode: t.config.MARKET_CLOCK });
    await loadListings({ db: t.database.db, market: fresh });
    expect(getInstrument('996C')?.name_en).toBe('Kabuto Listing');
    expect(fresh.quote('996C')).toEqual(quote);

    // sell half at the market: filled at the simulator's bid side, inside the limits, with its P&L
    const sold = body<TOrder>(
      await t.app.inject({
        method: 'POST',
        url: '/api/trade/closePosition?lang=en',
        headers: { token: u.token, ...key() },
        payload: { position_id: holding?.id, price_type: 'market', quantity: 100 },
      }),
    );
    expect(sold.code, JSON.stringify(sold)).toBe(1);
    expect(sold.data).toMatchObject({ status: 'filled', code: '996C', quantity: 100 });
    const fill = sold.data.fill_price ?? 0;
    expect(fill).toBeGreaterThanOrEqual(quote?.limit_down ?? Infinity);
    expect(fill).toBeLessThanOrEqual(quote?.limit_up ?? 0);
    const after = body<TPosition[]>(
      await t.app.inject({ url: '/api/trade/positions?status=holding&lang=en', headers: { token: u.token } }),
    ).data.find((p) => p.code === '996C');
    expect(after?.quantity).toBe(100);
    const closed = body<TPosition[]>(
      await t.app.inject({ url: '/api/trade/positions?status=closed&lang=en', headers: { token: u.token } }),
    ).data.find((p) => p.code === '996C');
    expect(closed?.realized_pl).toBe(sold.data.principal - sold.data.fee - yen(110_000));
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
