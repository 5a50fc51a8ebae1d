import { expect, test, type APIRequestContext } from '@playwright/test';
import { route, signInDemo } from './support/app.js';
import {
  advance,
  DAY,
  expectAxeClean,
  HOUR,
  IPO,
  ORDERS,
  publishIpo,
  serverNow,
  type Envelope,
} from './support/ipo.js';

/**
 * The IPO application's account picker, NISA chosen (ADR 0035), end to end at 390×844 in Japanese and in
 * English. An administrator publishes an IPO in the console and fixes its price; the demo user (who holds a
 * NISA account) applies for two units into NISA: the application shows the account, and the NISA growth quota
 * counts the amount reserved at once. The server's clock passes the draw (the equal policy, one applicant:
 * won), the purchase is confirmed, and after the listing date the shares are a holding in the NISA account,
 * the tax page's NISA quota has the purchase in it, and the orders page's IPO results name the account.
 */
const TEXT = {
  jp: {
    applied: '抽選待ち',
    won: '当選',
    approved: '購入済み',
    account: '預り区分: NISA（成長投資枠）',
    nisa: 'NISA（成長投資枠）',
    note: /上場時に枠が足りなければ/,
  },
  en: {
    applied: 'Waiting for the draw',
    won: 'Won',
    approved: 'Purchased',
    account: 'Account for the shares: NISA (growth quota)',
    nisa: 'NISA (growth quota)',
    note: /if it no longer fits then/,
  },
} as const;

/** What the flow reads of GET /api/tax/nisa and GET /api/trade/positions (amounts in sen). */
interface TNisaQuota {
  annual_used: number;
}
interface TPosition {
  code: string;
  account: string;
  quantity: number;
}

/** Two units of 100 shares at the offer price of ¥1,100, in sen. */
const AMOUNT = 220_000 * 100;

async function nisaQuota(request: APIRequestContext, token: string): Promise<TNisaQuota> {
  const res = await request.get('/api/tax/nisa', { headers: { token } });
  const body = (await res.json()) as Envelope<TNisaQuota>;
  expect(body.code, body.msg).toBe(1);
  return body.data;
}

/** The amount in a formatted yen text (whole yen: "¥1,234" or "1,234円"). */
const yenIn = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

test.describe.configure({ timeout: 180_000 });

for (const lang of ['jp', 'en'] as const) {
  const x = TEXT[lang];
  // new codes, apart from ipo.spec.ts's and the demo's
  const code = lang === 'jp' ? '9573' : '9574';

  test(`an IPO applied for into NISA, shown on the application, delivered into NISA (${lang})`, async ({
    page,
    browser,
  }) => {
    const request = page.request;
    const now = await serverNow(request);
    await publishIpo(browser, now, code, `E2E ${lang} NISA IPO`);

    let token = await signInDemo(page, lang);
    const before = await nisaQuota(request, token);
    await page.goto(route('/subPackages/tax/tax'));
    const usedBefore = yenIn(await page.getByTestId('nisa-annual-used').textContent());

    // the application form: two units into NISA, with the note on what NISA means for an IPO
    await page.goto(route(IPO));
    const card = page.getByTestId(`offering-${code}`);
    await expect(card.getByTestId('offer-price')).toContainText('1,100');
    await card.getByTestId('apply-units').fill('2');
    await card.getByTestId('apply-account').selectOption('nisa');
    await expect(card.getByText(x.note)).toBeVisible();
    await expectAxeClean(page);
    await card.getByTestId('apply').click();
    await expect(card.getByTestId('application-state')).toHaveText(x.applied);
    await expect(card.getByTestId('application-account')).toHaveText(x.account);
    // the quota counts the application at once (as a pending NISA order), not only once delivered
    const applied = await nisaQuota(request, token);
    expect(applied.annual_used).toBe(before.annual_used + AMOUNT);

    // past the close and the draw: won (1,000 shares offered, one applicant), then the purchase confirmed
    await advance(request, 2 * DAY + HOUR);
    token = await signInDemo(page, lang);
    await page.goto(route(IPO));
    await expect(card.getByTestId('application-state')).toHaveText(x.won);
    await expect(card.getByTestId('application-account')).toHaveText(x.account);
    await card.getByTestId('confirm-purchase').click();
    await expect(page).toHaveURL(/\/subPackages\/confirm\/confirm\?application=\d+/);
    const confirmPage = page.getByTestId('confirm-purchase-page');
    await expect(confirmPage.getByTestId('confirm-amount-due')).toContainText('220,000');
    await confirmPage.getByTestId('confirm-submit').click();
    await expect(page).toHaveURL(new RegExp(IPO));
    await expect(card.getByTestId('application-state')).toHaveText(x.approved);

    // past the purchase deadline and the listing date: 200 shares in the NISA account
    await advance(request, 2 * DAY);
    token = await signInDemo(page, lang);
    const res = await request.get('/api/trade/positions?status=holding', { headers: { token } });
    const positions = ((await res.json()) as Envelope<TPosition[]>).data.filter((p) => p.code === code);
    expect(positions.map((p) => ({ account: p.account, quantity: p.quantity }))).toEqual([
      { account: 'nisa', quantity: 200 },
    ]);
    await page.goto(route(`${ORDERS}?tab=holding`));
    const holding = page
      .getByTestId('holding-list')
      .getByRole('button', { name: new RegExp(`\\b${code}\\b`) });
    await expect(holding).toBeVisible();
    await expect(holding).toContainText('200');
    await expect(holding).toContainText(x.nisa);

    // the tax page's NISA quota: this year's growth quota holds the purchase
    await page.goto(route('/subPackages/tax/tax'));
    await expect
      .poll(async () => yenIn(await page.getByTestId('nisa-annual-used').textContent()))
      .toBe(usedBefore + AMOUNT / 100);
    expect((await nisaQuota(request, token)).annual_used).toBe(before.annual_used + AMOUNT);

    // the orders page's IPO results: the application with the account its shares went into
    await page.goto(route(`${ORDERS}?tab=ipo`));
    const result = page.getByTestId('ipo-results').getByRole('listitem').filter({ hasText: code });
    await expect(result).toContainText(x.approved);
    await expect(result.getByTestId('ipo-result-account')).toHaveText(x.account);
    await expectAxeClean(page);
  });
}
