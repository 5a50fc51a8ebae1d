import { describe, expect, it } from 'vitest';
import {
  feePpmOf,
  formFieldOf,
  percentInputOf,
  portfolioProblem,
  publishBodyOf,
  totalBp,
  weightBpOf,
} from './portfolio';

describe('what the product forms type, in the contract’s units', () => {
  it('takes weights in percent with up to two decimals as basis points, exactly', () => {
    expect(weightBpOf('25')).toBe(2500);
    expect(weightBpOf('33.33')).toBe(3333);
    expect(weightBpOf('0.01')).toBe(1);
    expect(weightBpOf(' 12.5 % ')).toBe(1250);
    expect(weightBpOf('１０')).toBe(1000);
    // 0.1 + 0.2 in floating point is 0.30000000000000004; typed text never goes through a float
    expect(weightBpOf('0.3')).toBe(30);
  });

  it('refuses a weight with three decimals, a sign or no digits', () => {
    expect(weightBpOf('33.333')).toBeNull();
    expect(weightBpOf('-5')).toBeNull();
    expect(weightBpOf('')).toBeNull();
    expect(weightBpOf(undefined)).toBeNull();
    expect(weightBpOf('1e2')).toBeNull();
  });

  it('takes the annual fee in percent with up to four decimals as parts per million', () => {
    expect(feePpmOf('0.1')).toBe(1_000);
    expect(feePpmOf('1.65')).toBe(16_500);
    expect(feePpmOf('0.0935')).toBe(935);
    expect(feePpmOf('0.09351')).toBeNull();
  });

  it('writes basis points and parts per million back as the percent a form shows', () => {
    expect(percentInputOf(2500, 2)).toBe('25');
    expect(percentInputOf(3333, 2)).toBe('33.33');
    expect(percentInputOf(1250, 2)).toBe('12.5');
    expect(percentInputOf(935, 4)).toBe('0.0935');
    expect(percentInputOf(0, 4)).toBe('0');
  });
});

describe('the weights of a portfolio', () => {
  it('are totalled as typed, rows not yet a weight counting as nothing', () => {
    expect(totalBp([{ weight: '60' }, { weight: '30' }, { weight: '' }, undefined])).toBe(9_000);
    expect(totalBp(undefined)).toBe(0);
  });

  it('must sum to exactly 100%: 99.99% and 100.01% are refused, 33.34 + 33.33 + 33.33 is taken', () => {
    const rows = (...weights: string[]) => weights.map((weight, i) => ({ code: `100${String(i)}`, weight }));
    expect(portfolioProblem(rows('33.33', '33.33', '33.33'))).toBe('weightsSum');
    expect(portfolioProblem(rows('50', '50.01'))).toBe('weightsSum');
    expect(portfolioProblem(rows('33.34', '33.33', '33.33'))).toBeNull();
    expect(portfolioProblem(rows('100'))).toBeNull();
  });

  it('must name each stock once and have at least one', () => {
    expect(
      portfolioProblem([
        { code: '7203', weight: '50' },
        { code: '7203', weight: '50' },
      ]),
    ).toBe('duplicate');
    expect(portfolioProblem([])).toBe('empty');
  });
});

describe('the publish request', () => {
  it('carries sen, basis points and parts per million, built without floating point', () => {
    expect(
      publishBodyOf({
        issuer: 'Kabuto AM',
        name: 'Core 2',
        strategy: 'Two stocks',
        risk_disclosure: 'You may lose money',
        constituents: [
          { code: '7203', weight: '66.67' },
          { code: '6758', weight: '33.33' },
        ],
        fund_cap: '100,000,000',
        deadline: '2027-03-31',
        min_investment: '10000.50',
        fee_percent: '0.165',
      }),
    ).toEqual({
      issuer: 'Kabuto AM',
      name: 'Core 2',
      strategy: 'Two stocks',
      risk_disclosure: 'You may lose money',
      constituents: [
        { code: '7203', weight_bp: 6667 },
        { code: '6758', weight_bp: 3333 },
      ],
      fund_cap: 10_000_000_000,
      deadline: '2027-03-31',
      min_investment: 1_000_050,
      management_rate_ppm: 1_650,
    });
  });

  it('puts the server’s field issues on the fields the form names', () => {
    expect(formFieldOf('constituents.1.weight_bp')).toEqual(['constituents', 1, 'weight']);
    expect(formFieldOf('management_rate_ppm')).toEqual(['fee_percent']);
    expect(formFieldOf('fund_cap')).toEqual(['fund_cap']);
  });
});
