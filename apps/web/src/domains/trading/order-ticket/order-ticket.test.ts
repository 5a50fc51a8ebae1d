import { sen } from '@kabuto/contract';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  confirmRows,
  limitPriceIssue,
  placeOrderBody,
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
  direction: 'long',
  priceType: 'market',
  limitPrice: null,
  quantity: 200,
  leverage: 1,
  dayTrade: true,
};

describe('order ticket request and confirm rows', () => {
  it('sends a day trade only on a margin order and a price only on a limit order', () => {
    expect(placeOrderBody('7203', cashMarket)).toEqual({
      code: '7203',
      direction: 'long',
      price_type: 'market',
      quantity: 200,
      leverage: 1,
      day_trade: false,
    });
    expect(
      placeOrderBody('7203', { ...cashMarket, direction: 'short', priceType: 'limit', limitPrice: 300_000 }),
    ).toEqual({
      code: '7203',
      direction: 'short',
      price_type: 'limit',
      price: 300_000,
      quantity: 200,
      leverage: 1,
      day_trade: true,
    });
  });

  it('sends the venue only for a PTS application', () => {
    expect(placeOrderBody('7203', cashMarket, 'pts')).toEqual({
      venue: 'pts',
      code: '7203',
      direction: 'long',
      price_type: 'market',
      quantity: 200,
      leverage: 1,
      day_trade: false,
    });
    expect(placeOrderBody('7203', cashMarket, 'exchange')).not.toHaveProperty('venue');
  });

  it('lists the order for the confirm dialog', () => {
    const t = ((key: string, params?: Record<string, unknown>) =>
      params === undefined ? key : `${key}${JSON.stringify(params)}`) as unknown as TFunction;
    const format = { price: yen, money: yen, shares: String };
    const figures = { price: 300_000, principal: 60_000_000, fee: 0, total: 20_000_000 };
    const stock = { code: '7203', name: 'TOYOTA' };
    const cash = confirmRows(t, stock, cashMarket, figures, format);
    expect(cash).toContainEqual(['trading.stock', 'TOYOTA (7203)']);
    expect(cash).toContainEqual(['trading.price', 'trading.marketPriceEstimate{"price":"¥3000"}']);
    expect(cash).toContainEqual(['trading.leverage', 'trading.cash']);
    expect(cash.at(-1)).toEqual(['trading.total', '¥200000']);
    const margin = confirmRows(t, stock, { ...cashMarket, leverage: 3 }, figures, format);
    expect(margin).toContainEqual([
      'trading.leverage',
      'trading.marginLeverage{"leverage":3} · trading.dayTrade',
    ]);
    expect(margin.at(-1)).toEqual(['trading.totalMargin', '¥200000']);
  });
});
