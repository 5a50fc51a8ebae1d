/**
 * The demo's dividend announcements (issue 17, ADR 0027): per stock, the record date of each year (MM-DD),
 * the dividend per share (sen) and the months to payment. A TypeScript module, not JSON, so that the built
 * server carries it. The seed announces the next one of each that is still ahead.
 */
export const DEMO_DIVIDENDS = {
  source:
    "Demo figures modelled on the companies' announced year-end and interim dividends per share for the fiscal year ending March 2025 (Toyota Motor ¥45 interim / ¥50 year-end; MUFG ¥25 interim / ¥39 year-end; Sony Group ¥10 interim / ¥10 year-end), as recalled from the companies' investor-relations pages: to confirm against those pages before any use beyond the demo. Record dates are the companies' (30 September, 31 March); the seed announces the next one of each that is still ahead.",
  dividends: [
    {
      code: '7203',
      record: '09-30',
      per_share_sen: 4500,
      payment_months_after: 2,
    },
    {
      code: '7203',
      record: '03-31',
      per_share_sen: 5000,
      payment_months_after: 3,
    },
    {
      code: '8306',
      record: '09-30',
      per_share_sen: 2500,
      payment_months_after: 2,
    },
    {
      code: '8306',
      record: '03-31',
      per_share_sen: 3900,
      payment_months_after: 3,
    },
    {
      code: '6758',
      record: '09-30',
      per_share_sen: 1000,
      payment_months_after: 2,
    },
    {
      code: '6758',
      record: '03-31',
      per_share_sen: 1000,
      payment_months_after: 3,
    },
  ],
} as const;
