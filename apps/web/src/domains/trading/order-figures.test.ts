import { sen } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import { collateralFor, feeFor, orderFigures, positionFigures } from './order-figures';
import { quoteOf } from './order-ticket/ticket-fixtures';

const ZERO_FEES = { fee_bp: 0, fee_min: sen(0), fee_max: sen(0) };

// ¥3,000 (bid ¥2,999, ask ¥3,005), no daily limits set
const quote = quoteOf({ limit_up: sen(0), limit_down: sen(0) });

describe('fee', () => {
  it('is zero on the default schedule', () => {
    expect(feeFor(60_000_000, ZERO_FEES)).toBe(0);
  });

  it('is floor(principal × bp / 10,000), rounded down to the yen', () => {
    // ¥1,234,567.89 at 10 bp = 123,456.789 sen → 123,456 sen → ¥1,234 (123,400 sen).
    expect(feeFor(123_456_789, { fee_bp: 10, fee_min: sen(0), fee_max: sen(0) })).toBe(123_400);
  });

  it('never goes below the minimum, and the minimum is also floored to the yen', () => {
    expect(feeFor(10_000, { fee_bp: 10, fee_min: sen(5_000), fee_max: sen(0) })).toBe(5_000);
    expect(feeFor(10_000, { fee_bp: 10, fee_min: sen(5_050), fee_max: sen(0) })).toBe(5_000);
  });

  it('is capped at the maximum when there is one', () => {
    expect(feeFor(1_000_000_000, { fee_bp: 50, fee_min: sen(0), fee_max: sen(100_000) })).toBe(100_000);
    expect(feeFor(1_000_000_000, { fee_bp: 50, fee_min: sen(0), fee_max: sen(0) })).toBe(5_000_000);
  });

  it('stays exact beyond 2^53 intermediate products', () => {
    // 9e14 sen × 9,999 bp would lose precision as a float product.
    expect(feeFor(900_000_000_000_003, { fee_bp: 9_999, fee_min: sen(0), fee_max: sen(0) })).toBe(
      899_910_000_000_000,
    );
  });

  it('is zero for nothing', () => {
    expect(feeFor(0, { fee_bp: 10, fee_min: sen(5_000), fee_max: sen(0) })).toBe(0);
  });
});

describe('order figures', () => {
  const fees = { fee_bp: 10, fee_min: sen(0), fee_max: sen(0) };

  it('cash long at market: the ask, principal + fee', () => {
    const f = orderFigures(
      { direction: 'long', priceType: 'market', limitPrice: null, quantity: 200, leverage: 1 },
      quote,
      fees,
    );
    expect(f.price).toBe(300_500);
    expect(f.principal).toBe(60_100_000); // ¥601,000
    expect(f.marketValue).toBe(60_000_000);
    expect(f.fee).toBe(60_100); // ¥601
    expect(f.margin).toBe(false);
    expect(f.collateral).toBe(0);
    expect(f.total).toBe(60_160_100);
  });

  it('short at market: the bid, always margin, collateral + fee', () => {
    const f = orderFigures(
      { direction: 'short', priceType: 'market', limitPrice: null, quantity: 100, leverage: 1 },
      quote,
      fees,
    );
    expect(f.price).toBe(299_900);
    expect(f.principal).toBe(29_990_000);
    expect(f.margin).toBe(true);
    expect(f.collateral).toBe(29_990_000);
    expect(f.total).toBe(29_990_000 + 29_900);
  });

  it('margin long with a limit: principal / leverage, rounded up to the yen', () => {
    const f = orderFigures(
      { direction: 'long', priceType: 'limit', limitPrice: 100_010, quantity: 100, leverage: 3 },
      quote,
      ZERO_FEES,
    );
    expect(f.principal).toBe(10_001_000);
    // ¥100,010 / 3 = ¥33,336.67 → ¥33,337
    expect(f.collateral).toBe(3_333_700);
    expect(f.total).toBe(3_333_700);
    expect(Number.isInteger(f.total)).toBe(true);
  });

  it('uses the last price when the book side is empty', () => {
    const f = orderFigures(
      { direction: 'long', priceType: 'market', limitPrice: null, quantity: 100, leverage: 1 },
      { ...quote, ask: sen(0) },
      ZERO_FEES,
    );
    expect(f.price).toBe(300_000);
  });

  it('estimates the same collateral as the server: principal / leverage rounded up to the yen', () => {
    expect(collateralFor(93_030_000, 3)).toBe(31_010_000);
    expect(collateralFor(100_001, 3)).toBe(33_400);
    expect(collateralFor(61_980_000, 1)).toBe(61_980_000);
  });
});

describe('position figures at a live price', () => {
  it('long gains when the price rises', () => {
    const f = positionFigures(
      { direction: 'long', quantity: 200, avg_price: sen(300_000), collateral: sen(0), leverage: 1 },
      301_000,
    );
    expect(f.marketValue).toBe(60_200_000);
    expect(f.floatingPl).toBe(200_000);
    expect(f.floatingPlBp).toBe(33); // 0.333% floored
    expect(f.maintenanceBp).toBeNull();
  });

  it('short gains when the price falls; a loss ratio floors toward −∞', () => {
    const gain = positionFigures(
      {
        direction: 'short',
        quantity: 100,
        avg_price: sen(300_000),
        collateral: sen(10_000_000),
        leverage: 3,
      },
      299_000,
    );
    expect(gain.floatingPl).toBe(100_000);
    const loss = positionFigures(
      {
        direction: 'short',
        quantity: 100,
        avg_price: sen(300_000),
        collateral: sen(10_000_000),
        leverage: 3,
      },
      301_000,
    );
    expect(loss.floatingPl).toBe(-100_000);
    expect(loss.floatingPlBp).toBe(-34); // −33.33 bp → −34
    // (10,000,000 − 100,000) / 30,100,000 = 3289.03 bp → 3289
    expect(loss.maintenanceBp).toBe(3289);
  });
});
