import { sen } from '@kabuto/contract';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  confirmRows,
  effectiveAccount,
  limitPriceIssue,
  offeredAccounts,
  placeOrderBody,
  repayDateAfter,
  ticketFields,
  quantityIssue,
  steppedPriceText,
  steppedQuantity,
  type TicketOrder,
} from './order-ticket';

const yen = (sen: number) => `¥${sen / 100}`;
const limits = { limit_down: sen(100_000), limit_up: sen(300_000) };

describe('order ticket validation', () => {
  it('requires a limit price on the tick grid within the daily limits', () => {
    expect(limitPriceIssue(null, false, limits, yen)).toEqual({ key: 'validation.priceRequired' });
    // 2000.5 yen: other stocks trade in whole yen at that price.
    expect(limitPriceIssue(200_050, false, limits, yen)).toEqual({
      key: 'errors.PRICE_OFF_TICK',
      params: { tick: '¥1' },
    });
    expect(limitPriceIssue(310_000, false, limits, yen)).toEqual({
      key: 'errors.PRICE_OUTSIDE_LIMITS',
      params: { lower: '¥1000', upper: '¥3000' },
    });
    expect(limitPriceIssue(200_000, false, limits, yen)).toBeNull();
    // No published limits: any price on the grid.
    expect(limitPriceIssue(310_000, false, { limit_down: sen(0), limit_up: sen(0) }, yen)).toBeNull();
  });

  it('requires a whole number of lots up to the maximum', () => {
    expect(quantityIssue(null)).toEqual({ key: 'validation.quantityRequired' });
    expect(quantityIssue(150)).toEqual({ key: 'validation.quantityLot' });
    expect(quantityIssue(10_000_100)).toEqual({ key: 'validation.quantityTooBig' });
    expect(quantityIssue(10_000_000)).toBeNull();
    expect(quantityIssue(100)).toBeNull();
  });
});

describe('order ticket steps', () => {
  it('steps the price by one tick from the typed price or the last price', () => {
    expect(steppedPriceText('2000', 100_000, false, 1)).toBe('2001');
    expect(steppedPriceText('2000', 100_000, false, -1)).toBe('1999');
    expect(steppedPriceText('', 200_000, false, 1)).toBe('2001');
    expect(steppedPriceText('abc', 200_000, false, -1)).toBe('1999');
  });

  it('steps the quantity by one lot, snapping odd quantities, never below one lot', () => {
    expect(steppedQuantity(100, 1)).toBe(200);
    expect(steppedQuantity(100, -1)).toBe(100);
    expect(steppedQuantity(250, 1)).toBe(300);
    expect(steppedQuantity(250, -1)).toBe(200);
    expect(steppedQuantity(null, 1)).toBe(100);
    expect(steppedQuantity(null, -1)).toBe(100);
  });
});

const cashMarket: TicketOrder = {
  kind: 'cash',
  marginType: 'standard',
  direction: 'long',
  priceType: 'market',
  limitPrice: null,
  quantity: 200,
  leverage: 1,
  dayTrade: true,
  account: 'specific',
};
const marginMarket: TicketOrder = { ...cashMarket, kind: 'margin', dayTrade: false };

describe('order ticket request', () => {
  it('sends a cash order as a long at leverage 1 with margin_type cash, whatever the margin fields say', () => {
    expect(placeOrderBody('7203', { ...cashMarket, direction: 'short', leverage: 3 })).toEqual({
      code: '7203',
      direction: 'long',
      price_type: 'market',
      quantity: 200,
      leverage: 1,
      day_trade: false,
      margin_type: 'cash',
      account: 'specific',
    });
  });

  it('sends a margin order with its type, side and collateral rate (as leverage), a price only on a limit order', () => {
    expect(
      placeOrderBody('7203', {
        ...marginMarket,
        marginType: 'general',
        direction: 'short',
        leverage: 2,
        dayTrade: true,
        priceType: 'limit',
        limitPrice: 300_000,
      }),
    ).toEqual({
      code: '7203',
      direction: 'short',
      price_type: 'limit',
      price: 300_000,
      quantity: 200,
      leverage: 2,
      day_trade: true,
      margin_type: 'general',
      account: 'specific',
    });
    // a 100% collateral rate is leverage 1 on the wire, still a margin order
    expect(placeOrderBody('7203', marginMarket)).toMatchObject({ leverage: 1, margin_type: 'standard' });
  });

  it('sends the account only when one is known, and the venue only for a PTS application', () => {
    expect(placeOrderBody('7203', { ...cashMarket, account: null })).not.toHaveProperty('account');
    expect(placeOrderBody('7203', cashMarket, 'pts')).toMatchObject({ venue: 'pts', margin_type: 'cash' });
    expect(placeOrderBody('7203', cashMarket, 'exchange')).not.toHaveProperty('venue');
  });
});

describe('order ticket fields and accounts', () => {
  it('shows a cash ticket as kind, account, price and quantity', () => {
    expect(ticketFields('cash', {}, true)).toEqual(['kind', 'account', 'priceType', 'price', 'quantity']);
    expect(ticketFields('cash', {}, false)).toEqual(['kind', 'priceType', 'price', 'quantity']);
  });

  it('shows a margin ticket’s type, side, account, collateral rate and figures before the quantity', () => {
    const fields = ticketFields('margin', {}, true);
    expect(fields).toEqual([
      'kind',
      'marginType',
      'side',
      'account',
      'collateralRate',
      'marginFigures',
      'priceType',
      'price',
      'quantity',
      'dayTrade',
    ]);
    expect(fields.indexOf('collateralRate')).toBeLessThan(fields.indexOf('quantity'));
    expect(fields.indexOf('marginFigures')).toBeLessThan(fields.indexOf('quantity'));
    // the day-trade ticket fixes kind, type and day trade: their controls go
    expect(ticketFields('margin', { kind: 'margin', marginType: 'general', dayTrade: true }, false)).toEqual([
      'side',
      'collateralRate',
      'marginFigures',
      'priceType',
      'price',
      'quantity',
    ]);
  });

  it('offers only the accounts held, never NISA for margin, and picks the default when it is offered', () => {
    expect(offeredAccounts(['specific', 'nisa'], 'cash')).toEqual(['specific', 'nisa']);
    expect(offeredAccounts(['specific', 'nisa'], 'margin')).toEqual(['specific']);
    expect(offeredAccounts(['general', 'nisa'], 'margin')).toEqual(['general']);
    expect(effectiveAccount(null, ['specific', 'nisa'], 'nisa')).toBe('nisa');
    expect(effectiveAccount('specific', ['specific', 'nisa'], 'nisa')).toBe('specific');
    // NISA chosen, then a margin ticket: the default is not offered either, so the first account
    expect(effectiveAccount('nisa', ['specific'], 'nisa')).toBe('specific');
    expect(effectiveAccount(null, [], 'specific')).toBeNull();
  });

  it('dates a 制度信用 deadline six months on in Tokyo, clamped to the month’s end', () => {
    expect(repayDateAfter(new Date('2026-11-24T01:00:00Z'))).toBe('2027-05-24');
    // 23:30 UTC on Aug 30 is Aug 31 in Tokyo: six months on is the end of February
    expect(repayDateAfter(new Date('2026-08-30T23:30:00Z'))).toBe('2027-02-28');
    expect(repayDateAfter(new Date('2027-08-31T03:00:00Z'))).toBe('2028-02-29');
  });
});

describe('order ticket confirm rows', () => {
  const t = ((key: string, params?: Record<string, unknown>) =>
    params === undefined ? key : `${key}${JSON.stringify(params)}`) as unknown as TFunction;
  const format = { price: yen, money: yen, shares: String };
  const figures = {
    price: 300_000,
    principal: 60_000_000,
    fee: 0,
    total: 20_000_000,
    collateral: 20_000_000,
  };
  const stock = { code: '7203', name: 'TOYOTA' };

  it('names a cash order 現物買 in its account', () => {
    const cash = confirmRows(t, stock, cashMarket, figures, format);
    expect(cash).toContainEqual(['trading.stock', 'TOYOTA (7203)']);
    expect(cash).toContainEqual(['trading.direction', 'ticket.trade.cashBuy']);
    expect(cash).toContainEqual(['trading.leverage', 'ticket.marginType.cash']);
    expect(cash).toContainEqual(['ticket.accountLabel', 'ticket.account.specific']);
    expect(cash).toContainEqual(['trading.price', 'trading.marketPriceEstimate{"price":"¥3000"}']);
    expect(cash.map(([k]) => k)).not.toContain('ticket.collateralRate');
    expect(cash.at(-1)).toEqual(['trading.total', '¥200000']);
  });

  it('names a margin order with its type, collateral rate, deadline and collateral', () => {
    const rows = confirmRows(
      t,
      stock,
      { ...marginMarket, leverage: 3, direction: 'short' },
      figures,
      format,
      'by May',
    );
    expect(rows).toContainEqual(['trading.direction', 'ticket.trade.marginOpenShort']);
    expect(rows).toContainEqual(['trading.leverage', 'ticket.marginType.standard']);
    expect(rows).toContainEqual(['ticket.collateralRate', 'ticket.rate{"rate":33}']);
    expect(rows).toContainEqual(['ticket.repayDeadline', 'by May']);
    expect(rows).toContainEqual(['ticket.positionValue', '¥600000']);
    expect(rows).toContainEqual(['ticket.collateralNeeded', '¥200000']);
    expect(rows.at(-1)).toEqual(['trading.totalMargin', '¥200000']);
    const day = confirmRows(
      t,
      stock,
      { ...marginMarket, marginType: 'general', dayTrade: true },
      figures,
      format,
    );
    expect(day).toContainEqual(['trading.direction', 'ticket.trade.marginOpenLong']);
    expect(day).toContainEqual(['trading.leverage', 'ticket.marginType.general · trading.dayTrade']);
    expect(day).toContainEqual(['ticket.collateralRate', 'ticket.rate{"rate":100}']);
  });
});
