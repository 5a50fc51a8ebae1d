import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { route, signInDemo, type Envelope } from './support/app.js';

/**
 * Tax accounts end to end (ADR 0021), in Japanese and in English at 390×844, against the built server in
 * demo mode. The demo user arrives with 特定口座 (源泉徴収あり), NISA and a seeded history (a gain withheld on
 * this year). Orders go through the API (the order ticket is being rebuilt): a NISA purchase, a 特定口座
 * purchase and its sale. The sale's realization moves the year's withholding, so the transaction log shows a
 * tax entry naming the sale's order (withheld on a gain, refunded on a loss: the simulator sets the price);
 * the tax page shows the NISA quota used, and the annual trade report downloads as CSV.
 */
const TAX = '/subPackages/tax/tax';
const LOG = '/subPackages/transactionLog/transactionLog';

async function call<T>(request: APIRequestContext, token: string, url: string, data: object): Promise<T> {
  const res = await request.post(url, {
    headers: { token, 'idempotency-key': crypto.randomUUID() },
    data,
  });
  const body = (await res.json()) as Envelope<T>;
  expect(body.code, body.msg).toBe(1);
  return body.data;
}

/** A NISA purchase, a 特定口座 purchase and its sale; answers the sale's order number. */
async function trade(request: APIRequestContext, token: string): Promise<string> {
  const order = { code: '7203', direction: 'long', price_type: 'market', quantity: 100, leverage: 1 };
  const nisa = await call<{ account: string; status: string }>(request, token, '/api/trade/placeOrder', {
    ...order,
    account: 'nisa',
  });
  expect(nisa).toMatchObject({ account: 'nisa', status: 'filled' });
  const bought = await call<{ account: string; position_id: number }>(
    request,
    token,
    '/api/trade/placeOrder',
    {
      ...order,
      account: 'specific',
    },
  );
  expect(bought.account).toBe('specific');
  const sold = await call<{ order_no: string; status: string }>(request, token, '/api/trade/closePosition', {
    position_id: bought.position_id,
    price_type: 'market',
    quantity: 100,
  });
  expect(sold.status).toBe('filled');
  return sold.order_no;
}

const cases = [
  {
    lang: 'jp' as const,
    taxKinds: /源泉徴収（譲渡益税）|源泉徴収税の還付/,
    nisaTitle: /NISA 成長投資枠/,
    download: 'CSVダウンロード',
    header:
      '約定日,銘柄コード,銘柄名,取引区分,数量（株）,譲渡の対価の額（円）,取得費及び譲渡費用の額等（円）,差引金額（譲渡損益）（円）',
    saleLine: /^\d{4}-\d{2}-\d{2},7203,トヨタ自動車,現物売却,100,\d+\.\d{2},\d+\.\d{2},-?\d+\.\d{2}$/m,
    withheldLine: /^源泉徴収税額・所得税及び復興特別所得税（円）,,,,,,,\d+\.\d{2}$/m,
  },
  {
    lang: 'en' as const,
    taxKinds: /Tax withheld|Tax refund/,
    nisaTitle: /NISA growth quota/,
    download: 'Download CSV',
    header:
      'Trade date,Code,Name,Type,Quantity (shares),Proceeds (JPY),Cost and expenses (JPY),Gain or loss (JPY)',
    saleLine:
      /^\d{4}-\d{2}-\d{2},7203,TOYOTA MOTOR CORPORATION,Sale,100,\d+\.\d{2},\d+\.\d{2},-?\d+\.\d{2}$/m,
    withheldLine: /^Tax withheld: income tax \(JPY\),,,,,,,\d+\.\d{2}$/m,
  },
];

for (const c of cases) {
  test(`${c.lang}: NISA and 特定口座 trades, the withholding in the log, the quota and the report CSV`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const token = await signInDemo(page, c.lang);
    const saleNo = await trade(page.request, token);

    // The transaction log: the sale's tax entry, a movement of its own naming the order.
    await page.goto(route(LOG));
    const taxEntry = page.locator(`[data-testid="movement"][data-key="tax:${saleNo}"]`);
    await expect(taxEntry.getByTestId('movement-title')).toHaveText(c.taxKinds);
    await expect(taxEntry).toContainText(saleNo);

    // The tax page: this year's 特定口座 with its withholding, the NISA quota in use.
    await page.goto(route(TAX));
    await expect(page.getByRole('heading', { name: c.nisaTitle })).toBeVisible();
    await expect(page.getByTestId('tax-account-specific').getByTestId('tax-withheld-national')).toBeVisible();
    const used = (await page.getByTestId('nisa-annual-used').textContent()) ?? '';
    expect(Number(used.replace(/[^\d]/g, ''))).toBeGreaterThan(0);
    await expect(page.getByTestId('tax-report-table')).toContainText('7203');

    // The annual trade report as CSV: a BOM for Excel, headers in the reader's language, the sale's line.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: c.download }).click(),
    ]);
    const path = await download.path();
    const csv = readFileSync(path, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe(c.header);
    expect(csv.replaceAll('\r\n', '\n')).toMatch(c.saleLine);
    expect(csv.replaceAll('\r\n', '\n')).toMatch(c.withheldLine);
  });
}
