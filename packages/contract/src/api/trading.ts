import { z } from 'zod';
import { ZSenAmount } from './account.js';
import { ZStockCode } from './market.js';

/**
 * Trading on the wire. Prices and money are integer sen; quantities are shares in lots of 100.
 * Every order-creating or money-moving request carries an `Idempotency-Key` header.
 */
export const LOT_SIZE = 100;
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Margin rules of MARKET.md: 30% initial margin (so at most 3x), 20% maintenance, 300,000 yen minimum. */
export const MARGIN_RULES = {
  maxLeverage: 3,
  initialMarginBp: 3000,
  maintenanceBp: 2000,
  minCollateralYen: 300_000,
} as const;

export const ZDirection = z.enum(['long', 'short']);
/**
 * The account cash shares are held in (issue 23): 特定口座 (specific), 一般口座 (general) or NISA's
 * 成長投資枠 (nisa). Margin positions are held in the specific or the general account, never in NISA.
 */
export const TAX_ACCOUNTS = ['specific', 'general', 'nisa'] as const;
export const ZTaxAccount = z.enum(TAX_ACCOUNTS, { error: 'validation.taxAccount' });
export type TaxAccount = (typeof TAX_ACCOUNTS)[number];
/** 現物 (cash), 制度信用 (standard margin: repaid within six months) or 一般信用 (general margin). */
export const MARGIN_TYPES = ['cash', 'standard', 'general'] as const;
export const ZMarginType = z.enum(MARGIN_TYPES, { error: 'validation.marginType' });
export type MarginType = (typeof MARGIN_TYPES)[number];
export const ZPriceType = z.enum(['market', 'limit']);

// POST /api/trade/placeOrder: opens a position (long = buy up, short = buy down)
export const ZPlaceOrderRequest = z
  .strictObject({
    code: ZStockCode,
    direction: ZDirection,
    price_type: ZPriceType,
    /** sen; required for a limit order, absent for a market order */
    price: z
      .number({ error: 'validation.priceRequired' })
      .int({ error: 'validation.priceTick' })
      .positive()
      .optional(),
    quantity: z
      .number({ error: 'validation.quantityRequired' })
      .int({ error: 'validation.quantityLot' })
      .positive({ error: 'validation.quantityRequired' })
      .max(10_000_000, { error: 'validation.quantityTooBig' })
      .refine((q) => q % LOT_SIZE === 0, { error: 'validation.quantityLot' }),
    /** 1 = cash; 2 or 3 = margin. A short position is always a margin position. */
    leverage: z
      .number()
      .int()
      .min(1, { error: 'validation.leverageRange' })
      .max(MARGIN_RULES.maxLeverage, { error: 'validation.leverageRange' }),
    /** a day-trade margin position: closed by rule before the closing auction */
    day_trade: z.boolean().default(false),
    /** exchange (TSE sessions) or pts (the 8:20-16:00 PTS session: cash buys, filled as applications) */
    venue: z.enum(['exchange', 'pts']).default('exchange'),
    /** the account: absent means the customer's default (chosen at account opening) */
    account: ZTaxAccount.optional(),
    /**
     * 現物, 制度信用 or 一般信用. Absent: cash for a long order at leverage 1, else standard margin (the wire
     * before issue 23). A cash order is a long order at leverage 1.
     */
    margin_type: ZMarginType.optional(),
  })
  .refine((o) => (o.price_type === 'limit') === (o.price !== undefined), {
    error: 'validation.priceRequired',
    path: ['price'],
  })
  .refine((o) => o.margin_type !== 'cash' || (o.direction === 'long' && o.leverage === 1), {
    error: 'validation.cashIsLong',
    path: ['margin_type'],
  })
  .refine((o) => o.account !== 'nisa' || (o.margin_type ?? 'cash') === 'cash', {
    error: 'validation.nisaCashOnly',
    path: ['account'],
  });
export type TPlaceOrderRequest = z.input<typeof ZPlaceOrderRequest>;

// POST /api/trade/closePosition: sells (or buys back) all or part of a position
export const ZClosePositionRequest = z
  .strictObject({
    position_id: z.number().int().positive(),
    price_type: ZPriceType,
    price: z.number().int().positive().optional(),
    quantity: z
      .number({ error: 'validation.quantityRequired' })
      .int({ error: 'validation.quantityLot' })
      .positive({ error: 'validation.quantityRequired' })
      .refine((q) => q % LOT_SIZE === 0, { error: 'validation.quantityLot' }),
  })
  .refine((o) => (o.price_type === 'limit') === (o.price !== undefined), {
    error: 'validation.priceRequired',
    path: ['price'],
  });
export type TClosePositionRequest = z.input<typeof ZClosePositionRequest>;

// POST /api/trade/cancelOrder
export const ZCancelOrderRequest = z.strictObject({ order_no: z.string().min(1).max(40) });

export const ZOrderStatus = z.enum(['pending', 'filled', 'cancelled', 'rejected']);
export const ZOrder = z.object({
  order_no: z.string(),
  code: z.string(),
  name: z.string(),
  /** open: opens a position; close: closes one (position_id) */
  kind: z.enum(['open', 'close']),
  direction: ZDirection,
  /** buy or sell on the market: long opens and short closes buy; the others sell */
  side: z.enum(['buy', 'sell']),
  price_type: ZPriceType,
  limit_price: ZSenAmount.nullable(),
  quantity: z.number().int(),
  leverage: z.number().int(),
  day_trade: z.boolean(),
  venue: z.enum(['exchange', 'pts']),
  account: ZTaxAccount,
  margin_type: ZMarginType,
  position_id: z.number().int().nullable(),
  status: ZOrderStatus,
  fill_price: ZSenAmount.nullable(),
  /** price × quantity at the fill (or the reserved estimate while pending) */
  principal: ZSenAmount,
  fee: ZSenAmount,
  /** cash the order takes (buy) or gives (sell), fee included */
  total: ZSenAmount,
  /** cash held for the order while it is pending */
  reserved: ZSenAmount,
  reason: z.string().nullable(),
  created_at: z.string(),
  filled_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  /** when a waiting order can fill next (outside the session) */
  fills_from: z.string().nullable(),
});
export type TOrder = z.infer<typeof ZOrder>;

export const ZPosition = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  direction: ZDirection,
  leverage: z.number().int(),
  day_trade: z.boolean(),
  /** cash holdings: one per (code, account), at a moving-average cost; margin: one 建玉 per opening order */
  account: ZTaxAccount,
  margin_type: ZMarginType,
  /** 取得価額: what the shares held cost, fees included (cash holdings; the tax cost basis) */
  book_value: ZSenAmount,
  /** 制度信用: the date by which it must be repaid (returned or closed); null otherwise */
  repay_deadline: z.string().nullable(),
  status: z.enum(['holding', 'closing', 'closed']),
  /** shares still held */
  quantity: z.number().int(),
  /** shares in pending close orders */
  closing_quantity: z.number().int(),
  avg_price: ZSenAmount,
  opened_at: z.string(),
  last_price: ZSenAmount,
  market_value: ZSenAmount,
  cost: ZSenAmount,
  collateral: ZSenAmount,
  floating_pl: ZSenAmount,
  /** basis points of cost */
  floating_pl_bp: z.number().int(),
  realized_pl: ZSenAmount,
  closed_at: z.string().nullable(),
  close_price: ZSenAmount.nullable(),
  /** (collateral + floating P&L) / market value, basis points; null for cash positions */
  maintenance_bp: z.number().int().nullable(),
  /** a margin call in force: the time by which the ratio must be back at 20%, else the position is closed */
  margin_call_deadline: z.string().nullable(),
});
export type TPosition = z.infer<typeof ZPosition>;

export const ZOrdersQuery = z.object({
  status: z.enum(['pending', 'done', 'all']).default('all'),
  venue: z.enum(['exchange', 'pts', 'all']).default('all'),
});
export const ZPositionsQuery = z.object({ status: z.enum(['holding', 'closed']).default('holding') });
export const ZOrderNoQuery = z.object({ order_no: z.string().min(1).max(40) });

// GET /api/trade/rules: the published rules and fee schedule
export const ZTradingRules = z.object({
  lot_size: z.number().int(),
  max_leverage: z.number().int(),
  initial_margin_bp: z.number().int(),
  maintenance_bp: z.number().int(),
  min_collateral: ZSenAmount,
  /** commission: fee = max(min, floor(principal × bp / 10,000)) rounded down to the yen */
  fee_bp: z.number().int(),
  fee_min: ZSenAmount,
  fee_max: ZSenAmount,
});
export type TTradingRules = z.infer<typeof ZTradingRules>;

// Ledger: GET /api/ledger/entries, GET /api/ledger/statement (CSV), POST /api/ledger/verifyStatement
/**
 * Every kind of journal entry the server writes: the one list. The server's entries are typed by it, and
 * every catalogue has a label for each (`ledgerKinds`, checked by the type and by the web app's test).
 */
export const LEDGER_ENTRY_KINDS = [
  'demo_funding',
  'order_reserve',
  'order_release',
  'trade_buy',
  'trade_sell',
  'fee',
  'margin_open',
  'margin_close',
  'deposit',
  'withdrawal_hold',
  'withdrawal_paid',
  'withdrawal_release',
  'tax_withheld',
  'tax_refund',
  'fund_apply',
  'fund_buy',
  'fund_redeem',
  'dividend',
  'dividend_adjustment',
  'ipo_reserve',
  'ipo_release',
  'ipo_payment',
  'loan_disbursement',
  'loan_repayment',
] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];
/**
 * A journal entry's memo parameters (order number, code, quantity, price, withdrawal id...), from which a
 * client renders the memo in the reader's language (the catalogues' `ledgerMemos.<kind>`); amounts and
 * prices are sen. Null for entries written before they existed: their English memo is all there is.
 */
export const ZLedgerMemoParams = z.record(z.string(), z.union([z.string(), z.number()]));
export type LedgerMemoParams = z.infer<typeof ZLedgerMemoParams>;
/** A user's ledger accounts, as the transaction log names them. */
export const LEDGER_ACCOUNTS = ['cash', 'reserved', 'margin', 'withdrawing'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];
export const ZLedgerQuery = z.object({
  kind: z.string().max(40).optional(),
  from: z.iso.date({ error: 'validation.dateFormat' }).optional(),
  to: z.iso.date({ error: 'validation.dateFormat' }).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export const ZLedgerLine = z.object({
  seq: z.number().int(),
  at: z.string(),
  kind: z.string(),
  account: z.enum(LEDGER_ACCOUNTS),
  amount: ZSenAmount,
  /** the account's balance after this line */
  balance: ZSenAmount,
  memo: z.string().nullable(),
  /** the memo's parameters, rendered with `ledgerMemos.<kind>`; null for old entries (show `memo`) */
  params: ZLedgerMemoParams.nullable(),
  hash: z.string(),
});
export type TLedgerLine = z.infer<typeof ZLedgerLine>;
export const ZLedgerPage = z.object({ total: z.number().int(), items: z.array(ZLedgerLine) });
/**
 * GET /api/ledger/movements: the user's money as they see it, one movement per business object (an order,
 * a deposit, a withdrawal...), newest first. A movement groups the journal entries that share their object
 * (a withdrawal's request with its payout or return, an order's hold with its fill and release): `kind` is
 * its first entry's kind, `state` its latest's, and `cash` its net change of the user's available cash (a
 * withdrawal paid: minus the amount; returned: zero), `opening_cash` its first entry's (a withdrawal's
 * request: minus the amount). The internal legs (held, withdrawing) are not shown. The filters keep a
 * movement when one of its entries is of `kind` and when one falls in the period (Tokyo dates, inclusive);
 * the movement then counts whole.
 */
export const ZMovementQuery = z.object({
  kind: z.enum(LEDGER_ENTRY_KINDS).optional(),
  from: z.iso.date({ error: 'validation.dateFormat' }).optional(),
  to: z.iso.date({ error: 'validation.dateFormat' }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TMovementQuery = z.infer<typeof ZMovementQuery>;
export const ZLedgerMovement = z.object({
  /** the business object: "withdrawal:12", "deposit:3", an order number, or "entry:<id>" */
  key: z.string(),
  kind: z.enum(LEDGER_ENTRY_KINDS),
  state: z.enum(LEDGER_ENTRY_KINDS),
  started_at: z.string(),
  updated_at: z.string(),
  cash: ZSenAmount,
  opening_cash: ZSenAmount,
  /** the first memo of its entries, in English as the server wrote it (for operators and old rows) */
  memo: z.string().nullable(),
  /** its first entry's memo parameters, rendered with `ledgerMemos.<kind>`; null for old entries (show `memo`) */
  params: ZLedgerMemoParams.nullable(),
  entries: z.number().int(),
});
export type TLedgerMovement = z.infer<typeof ZLedgerMovement>;
export const ZLedgerMovementPage = z.object({
  total: z.number().int(),
  /** the user's available cash now (every movement's `cash` added up, whatever the filters) */
  cash_balance: ZSenAmount,
  items: z.array(ZLedgerMovement),
});
export const ZStatementQuery = z.object({
  from: z.iso.date({ error: 'validation.dateFormat' }).optional(),
  to: z.iso.date({ error: 'validation.dateFormat' }).optional(),
});
export const ZVerifyResult = z.object({
  valid: z.boolean(),
  lines: z.number().int(),
  /** the first line (1-based, after the header) that does not match the chain */
  first_bad_line: z.number().int().nullable(),
  problem: z.string().nullable(),
});
