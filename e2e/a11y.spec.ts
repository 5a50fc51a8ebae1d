import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { route } from './support/app.js';
import { ROUTES } from './support/route-table.js';

/**
 * The accessibility walk (issue 21): every route of the specification's table, in Japanese and in English,
 * logged out and logged in as the demo customer, checked by axe-core (WCAG 2.x A and AA rules): no serious
 * or critical violation. Each of the two price-colour schemes (red-up, green-up) is walked in both languages,
 * so the rise and fall colours are checked for contrast in both. Besides axe: the main controls (the tab
 * bar, the back arrow, the pages' buttons) are at least 44×44 px, and a control that takes the keyboard's
 * focus shows it. Pages are opened by changing the hash in one document, as the route walk does, so that one
 * walk costs one page load per language.
 */
const DEMO = { phone: '09000000001', password: 'demo1234' };
const MIN_TARGET = 44;

interface Finding {
  path: string;
  problem: string;
}

/** The serious and critical axe violations on the page now, one line each (rule, then where). */
async function axeProblems(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // only the violations are collected (the passes would cost as much again on every page)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
}

/** The main controls smaller than 44×44 px: tab bar items, the back arrow, the pages' full buttons. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const controls = document.querySelectorAll<HTMLElement>(
      '.app-tab-bar .adm-tab-bar-item, .nav-back, main .adm-button-block, main button[type="submit"]',
    );
    return Array.from(controls)
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && (r.width < min - 0.5 || r.height < min - 0.5);
      })
      .slice(0, 3)
      .map((el) => {
        const r = el.getBoundingClientRect();
        return `target ${Math.round(r.width)}×${Math.round(r.height)}: ${el.tagName.toLowerCase()}.${(el.getAttribute('class') ?? '').split(' ')[0] ?? ''}`;
      });
  }, MIN_TARGET);
}

/** Every antd-mobile mask (behind a toast or a dialog) at rest: fully shown or fully gone. */
function masksSettled(): boolean {
  return Array.from(document.querySelectorAll<HTMLElement>('.adm-mask')).every((el) => {
    const opacity = Number(getComputedStyle(el).opacity);
    return opacity === 0 || opacity === 1;
  });
}

/** The masks' opacities now, to tell whether one appeared or moved while axe was reading the page. */
function maskOpacities(): string {
  return Array.from(document.querySelectorAll<HTMLElement>('.adm-mask'))
    .map((el) => getComputedStyle(el).opacity)
    .join(',');
}

async function walk(page: Page, lang: 'jp' | 'en', colors: 'red-up' | 'green-up'): Promise<Finding[]> {
  const findings: Finding[] = [];
  await page.evaluate(
    ({ l, c }) => {
      localStorage.setItem('locale', l);
      localStorage.setItem('priceColors', c);
    },
    { l: lang, c: colors },
  );
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const path of ROUTES) {
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, path);
    await expect(page).toHaveURL(new RegExp(`#${path.split('?')[0] ?? path}`));
    await expect(page.locator('.adm-spin-loading, .page-loading').first())
      .toBeHidden({ timeout: 10_000 })
      .catch(() => undefined);
    await page.waitForTimeout(100);
    // A toast or a dialog still fading in or out (the page before may have said "no such order" and moved on)
    // is measured by axe at its opacity of the moment: the page is checked once every mask is settled, and
    // checked again when a mask appeared or moved while axe was reading it (an answer that arrived late).
    const where = `${lang} ${colors} ${path}`;
    let problems: string[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await page.waitForFunction(masksSettled, undefined, { timeout: 5_000 }).catch(() => undefined);
      const before = await page.evaluate(maskOpacities);
      problems = [...(await axeProblems(page)), ...(await smallTargets(page))];
      const after = await page.evaluate(maskOpacities);
      if (before === after && (await page.evaluate(masksSettled))) break;
    }
    for (const problem of problems) findings.push({ path: where, problem });
  }
  return findings;
}

async function signIn(page: Page): Promise<void> {
  const res = await page.request.post('/api/auth/login', {
    data: { account: DEMO.phone, password: DEMO.password, agree: true },
  });
  const login = (await res.json()) as { code: number; msg: string; data: { token: string; user_id: number } };
  expect(login.code, login.msg).toBe(1);
  await page.evaluate(
    ({ token, userId }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('userId', String(userId));
    },
    { token: login.data.token, userId: login.data.user_id },
  );
}

test.describe.configure({ timeout: 240_000 });
test.use({ viewport: { width: 390, height: 844 } });

test('the checks can fail: a button with no name, a 30 px control and a missing focus ring are caught', async ({
  page,
}) => {
  await page.goto(route('/pages/index/index'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => {
    const main = document.querySelector('main');
    const probe = document.createElement('button');
    probe.id = 'a11y-probe';
    probe.type = 'submit';
    probe.className = 'a11y-probe';
    probe.style.cssText = 'width:30px;height:30px;min-height:0;outline:none;box-shadow:none';
    main?.prepend(probe);
  });
  const problems = [...(await axeProblems(page)), ...(await smallTargets(page))];
  expect(problems).toContainEqual(expect.stringMatching(/^button-name: #a11y-probe/));
  expect(problems).toContainEqual('target 30×30: button.a11y-probe');
  // the focus ring comes from the stylesheet's :focus-visible rule, which an inline "outline:none" beats
  await page.keyboard.press('Tab');
  await page.focus('#a11y-probe');
  expect(await focusRing(page, '#a11y-probe')).toBe(false);
  await page.evaluate(() => document.querySelector('#a11y-probe')?.removeAttribute('style'));
  expect(await focusRing(page, '#a11y-probe')).toBe(true);
});

/** Whether the focused element draws an outline or a ring (box-shadow) that it does not draw unfocused. */
async function focusRing(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector<HTMLElement>(sel);
    if (el === null || document.activeElement !== el) return false;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    return outline || (style.boxShadow !== 'none' && style.boxShadow !== '');
  }, selector);
}

/** Each price-colour scheme in both languages and in both states: four walks. */
const WALKS = [
  { signedIn: false, lang: 'jp', colors: 'green-up' },
  { signedIn: false, lang: 'en', colors: 'red-up' },
  { signedIn: true, lang: 'jp', colors: 'red-up' },
  { signedIn: true, lang: 'en', colors: 'green-up' },
] as const;

for (const { signedIn, lang, colors } of WALKS) {
  test(`every route ${signedIn ? 'logged in' : 'logged out'}, ${lang}, ${colors}: no serious axe violation, 44 px targets`, async ({
    page,
  }) => {
    await page.goto(route('/pages/index/index'));
    if (signedIn) await signIn(page);
    expect(await walk(page, lang, colors)).toEqual([]);
  });
}

test('keyboard focus is visible on the controls a keyboard reaches', async ({ page }) => {
  await page.goto(route('/subPackages/login/login'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const missing: string[] = [];
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    const found = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (el === null || el === document.body) return null;
      el.setAttribute('data-focus-probe', '1');
      return `${el.tagName.toLowerCase()}.${(el.getAttribute('class') ?? '').split(' ')[0] ?? ''}`;
    });
    if (found === null) continue;
    if (!(await focusRing(page, '[data-focus-probe="1"]'))) missing.push(found);
    await page.evaluate(() =>
      document.querySelector('[data-focus-probe]')?.removeAttribute('data-focus-probe'),
    );
  }
  expect(missing).toEqual([]);
});
