import {
  LEDGER_ACCOUNTS,
  LEDGER_ENTRY_KINDS,
  LOCALES,
  MESSAGES,
  sen,
  type LedgerMemoParams,
} from '@kabuto/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { formattersFor } from '@/shared/format/format';
import { i18n, initI18n, showLanguage } from '@/shared/i18n/i18n';
import {
  accountLabel,
  kindLabel,
  memoText,
  movementOpening,
  movementState,
  movementTitle,
  STATE_OF_KIND,
} from './texts';

/** Every entry kind of the contract's one list, and every account, has a real label in all six languages. */
beforeAll(async () => {
  await initI18n();
});

describe('transaction log texts', () => {
  it.each(LOCALES)('%s labels every ledger entry kind and account', async (locale) => {
    await showLanguage(locale);
    for (const kind of LEDGER_ENTRY_KINDS) {
      // In the language's own catalogue, not by falling back to English...
      expect(MESSAGES[locale].ledgerKinds[kind].trim(), `${locale} ${kind}`).not.toBe('');
      // ...and as the page renders it: a text, never the key or the raw kind.
      const label = kindLabel(i18n.t, kind);
      expect(label, `${locale} ${kind}`).toBe(MESSAGES[locale].ledgerKinds[kind]);
      expect(label).not.toContain('ledgerKinds');
    }
    for (const account of LEDGER_ACCOUNTS) {
      expect(accountLabel(i18n.t, account), `${locale} ${account}`).toBe(MESSAGES[locale].accounts[account]);
    }
  });

  it.each(LOCALES)('%s names every movement and its state, never a key', async (locale) => {
    await showLanguage(locale);
    const texts: string[] = [];
    for (const kind of LEDGER_ENTRY_KINDS) {
      for (const state of LEDGER_ENTRY_KINDS) {
        const m = { kind, state, cash: sen(0), opening_cash: sen(-100) };
        texts.push(movementTitle(i18n.t, m), movementOpening(i18n.t, m, '¥1') ?? '');
      }
      texts.push(movementState(i18n.t, { state: kind }) ?? '');
    }
    for (const text of texts.filter((x) => x !== '')) {
      expect(text, locale).not.toMatch(/ledger\.|ledgerKinds|\{\{|_/);
    }
    // The states and titles come from the language's own catalogue, not English by fallback.
    if (locale !== 'en') {
      const en = i18n.getFixedT('en');
      expect(movementState(i18n.t, { state: 'withdrawal_release' })).not.toBe(
        movementState(en, { state: 'withdrawal_release' }),
      );
      expect(movementTitle(i18n.t, { kind: 'withdrawal_hold', state: 'withdrawal_hold' })).not.toBe(
        movementTitle(en, { kind: 'withdrawal_hold', state: 'withdrawal_hold' }),
      );
    }
  });

  it('reads a withdrawal as one line: requested, then paid or returned, never money coming in', async () => {
    await showLanguage('ja');
    const hold = {
      kind: 'withdrawal_hold',
      cash: sen(-200_000_000),
      opening_cash: sen(-200_000_000),
    } as const;
    expect(movementTitle(i18n.t, { ...hold, state: 'withdrawal_hold' })).toBe('出金');
    expect(movementState(i18n.t, { state: 'withdrawal_hold' })).toBe('申請中');
    expect(movementState(i18n.t, { state: 'withdrawal_paid' })).toBe('出金済み');
    expect(movementState(i18n.t, { state: 'withdrawal_release' })).toBe('返金済み');
    expect(movementOpening(i18n.t, hold, '¥2,000,000')).toBeNull();
    expect(movementOpening(i18n.t, { ...hold, cash: sen(0) }, '¥2,000,000')).toBe('申請額：¥2,000,000');
    // An order: executed reads as what it did, otherwise as an order with its state.
    expect(movementTitle(i18n.t, { kind: 'order_reserve', state: 'trade_buy' })).toBe('現物買');
    expect(movementTitle(i18n.t, { kind: 'order_reserve', state: 'order_release' })).toBe('注文');
    expect(movementState(i18n.t, { state: 'order_release' })).toBe('取消');
    expect(movementTitle(i18n.t, { kind: 'deposit', state: 'deposit' })).toBe('入金');
    expect(Object.keys(STATE_OF_KIND).sort()).toEqual([...LEDGER_ENTRY_KINDS].sort());
  });

  /** Params as the server writes them for each kind (apps/server: trading, funds, demo cash). */
  const trade = { order_no: '2026112400000123', code: '7203', quantity: 100 };
  const SAMPLE_PARAMS: Record<(typeof LEDGER_ENTRY_KINDS)[number], LedgerMemoParams> = {
    demo_funding: { amount: 1_000_000_000 },
    order_reserve: { ...trade, amount: 30_500_000 },
    order_release: { ...trade, amount: 30_500_000 },
    trade_buy: { ...trade, price: 304_000 },
    trade_sell: { ...trade, price: 304_000 },
    fee: { order_no: trade.order_no },
    margin_open: { ...trade, price: 304_000 },
    margin_close: { ...trade, price: 304_000 },
    deposit: { deposit_id: 3, amount: 10_000_000, transfer_date: '2026-11-24' },
    withdrawal_hold: { amount: 4_000_000, bank: 'みずほ銀行', account: '••••567' },
    withdrawal_paid: { withdrawal_id: 12, amount: 4_000_000 },
    withdrawal_release: { withdrawal_id: 12, amount: 4_000_000 },
    loan_disbursement: { loan_id: 7, amount: 10_000_000 },
    loan_repayment: { loan_id: 7, amount: 10_049_300, principal: 10_000_000, interest: 49_300, late: 0 },
    tax_withheld: {
      year: 2026,
      gain: 10_000_000,
      national: 1_531_500,
      local: 500_000,
      order_no: trade.order_no,
    },
    tax_refund: { year: 2026, gain: 0, national: 1_531_500, local: 500_000, order_no: trade.order_no },
    fund_apply: { product: 'Kabuto Japan Growth', record_id: 7, amount: 1_000_000 },
    fund_buy: {
      product: 'Kabuto Japan Growth',
      record_id: 7,
      units: 9616,
      nav: 1_039_969,
      cost: 1_000_034,
      refund: 21,
    },
    fund_redeem: {
      product: 'Kabuto Japan Growth',
      record_id: 7,
      units: 9616,
      nav: 1_040_000,
      proceeds: 1_000_064,
    },
    dividend: {
      code: '7203',
      quantity: 100,
      per_share: 3750,
      gross: 375_000,
      national: 57_400,
      local: 18_700,
      net: 298_900,
    },
    dividend_adjustment: {
      code: '7203',
      quantity: 200,
      per_share: 3750,
      gross: 750_000,
      net: 635_138,
    },
    ipo_reserve: { code: '9555', units: 3, application_id: 7, amount: 21_000_000 },
    ipo_release: { code: '9555', units: 3, application_id: 7, amount: 600_000 },
    ipo_payment: { code: '9555', shares: 300, price: 68_000, application_id: 7 },
  };

  it.each(LOCALES)("%s writes every kind's memo from its params, in its own words", async (locale) => {
    await showLanguage(locale);
    const en = i18n.getFixedT('en');
    const fmt = formattersFor(locale);
    for (const kind of LEDGER_ENTRY_KINDS) {
      const entry = { kind, memo: 'English memo', params: SAMPLE_PARAMS[kind] };
      const text = memoText(i18n.t, fmt, entry);
      expect(text, `${locale} ${kind}`).toBeTruthy();
      // Filled in: no key, no placeholder left, not the stored English memo.
      expect(text, `${locale} ${kind}`).not.toMatch(/ledgerMemos|\{\{|\}\}|English memo/);
      for (const [name, value] of Object.entries(SAMPLE_PARAMS[kind])) {
        // what each template uses comes out in the reader's format (an order number, a code, a price)
        if (name === 'order_no' || name === 'code') expect(text).toContain(String(value));
        if (name === 'price' || name === 'national' || name === 'local')
          expect(text).toContain(fmt.money(sen(Number(value))));
        if (name === 'transfer_date') expect(text).toContain(fmt.date(String(value)));
      }
      // From the language's own catalogue, not English by fallback.
      expect(MESSAGES[locale].ledgerMemos[kind].trim(), `${locale} ${kind}`).not.toBe('');
      if (locale !== 'en') expect(text, `${locale} ${kind}`).not.toBe(memoText(en, fmt, entry));
    }
  });

  it('shows the English memo of an entry older than params, and no memo as none', async () => {
    await showLanguage('ja');
    const fmt = formattersFor('ja');
    expect(
      memoText(i18n.t, fmt, { kind: 'deposit', memo: 'Bank transfer of 2026-11-24', params: null }),
    ).toBe('Bank transfer of 2026-11-24');
    expect(memoText(i18n.t, fmt, { kind: 'trade_buy', memo: null, params: null })).toBeNull();
    expect(memoText(i18n.t, fmt, { kind: 'deposit', memo: '', params: null })).toBeNull();
    expect(memoText(i18n.t, fmt, { kind: 'trade_buy', memo: null, params: SAMPLE_PARAMS.trade_buy })).toBe(
      '現物買：7203 100株 @ ￥3,040（注文2026112400000123）',
    );
    expect(memoText(i18n.t, fmt, { kind: 'deposit', memo: null, params: SAMPLE_PARAMS.deposit })).toBe(
      '2026年11月24日のお振込み',
    );
  });

  it('shows a kind it does not know as it came', () => {
    expect(kindLabel(i18n.t, 'stock_split')).toBe('stock_split');
  });
});
