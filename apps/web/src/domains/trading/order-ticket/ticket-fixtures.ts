import {
  sen,
  type TaxAccount,
  type TBrokerageAccount,
  type TQuote,
  type TTradingRules,
} from '@kabuto/contract';

/** What the order ticket's tests share: a TOPIX 500 stock at ¥3,000, its quote and the published rules. */
export const stock = { code: '7203', name: 'Toyota', topix500: true, price_decimals: 0 };

/** Toyota at ¥3,000 (bid ¥2,999, ask ¥3,005; limits ¥2,400-3,600) at 10:00 Tokyo time, or with `over`. */
export function quoteOf(over: Partial<TQuote> = {}): TQuote {
  return {
    code: '7203',
    last: sen(300_000),
    bid: sen(299_900),
    ask: sen(300_500),
    open: sen(0),
    high: sen(0),
    low: sen(0),
    prev_close: sen(0),
    volume: 0,
    turnover: sen(0),
    change: sen(0),
    change_bp: 0,
    limit_up: sen(360_000),
    limit_down: sen(240_000),
    trading_date: '2026-11-24',
    time: '2026-11-24T01:00:00.000Z',
    simulated: true,
    ...over,
  };
}

export const rules: TTradingRules = {
  lot_size: 100,
  max_leverage: 3,
  initial_margin_bp: 3_300,
  maintenance_bp: 2_000,
  min_collateral: sen(30_000_000),
  fee_bp: 0,
  fee_min: sen(0),
  fee_max: sen(0),
};

/** An open brokerage account holding 特定 and NISA, every kind of trade allowed, new orders to `defaultAccount`. */
export function brokerageOf(defaultAccount: TaxAccount): TBrokerageAccount {
  return {
    status: 'open',
    opened_at: '2026-11-01T00:00:00.000Z',
    specific_account: 'withholding',
    nisa: true,
    default_account: defaultAccount,
    accounts: ['specific', 'nisa'],
    suitability: {
      margin: { allowed: true, unmet: [] },
      short: { allowed: true, unmet: [] },
      loans: { allowed: true, unmet: [] },
    },
  };
}
