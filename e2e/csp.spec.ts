import { expect, test, type Page } from '@playwright/test';
import { route } from './support/app.js';
import { consoleRoute, loginAsAdmin } from './support/console.js';

/**
 * The Content-Security-Policy of the web app and the console (issue 22, ADR 0032): the policy is sent, and
 * the main pages of both, signed in, run under it without a single violation (a `securitypolicyviolation`
 * event or a CSP message on the console). A page that broke the policy (an inline script, a connection to
 * another origin) would be blocked by the browser and fail here; the first test shows the watch sees one.
 */
const DEMO = { phone: '09000000001', password: 'demo1234' };

const WEB_ROUTES = [
  '/pages/index/index',
  '/pages/market/market',
  '/pages/jiaoyi/jiaoyi',
  '/pages/record/record',
  '/pages/user/user',
  '/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203',
  '/subPackages/order/order?tab=holding',
  '/subPackages/message/message',
  '/subPackages/index/ipo/ipo',
  '/subPackages/index/gendan/gendan',
  '/subPackages/index/rongzi/rongzi',
  '/subPackages/bankAccount/bankAccount',
  '/subPackages/withdrawal/withdrawal',
  '/subPackages/recharge/recharge',
  '/subPackages/real_name/real_name',
  '/subPackages/seting/seting',
  '/subPackages/customerService/customerService',
  '/subPackages/transactionLog/transactionLog',
  '/subPackages/tax/tax',
  '/subPackages/webview/webview?url=https%3A%2F%2Fwww.fsa.go.jp%2F',
] as const;

const CONSOLE_ROUTES = [
  '/',
  '/queues/identity',
  '/queues/deposits',
  '/queues/withdrawals',
  '/reconciliation',
  '/loans',
  '/offerings',
  '/users',
  '/settings',
  '/invitation-codes',
  '/operators',
  '/news',
  '/products',
  '/dividends',
  '/support',
  '/audit',
] as const;

/** Records every CSP violation the page reports, from its first script on, and every CSP console message. */
async function watchViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  await page.exposeFunction('reportCspViolation', (line: string) => {
    found.push(line);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { reportCspViolation: (line: string) => void }).reportCspViolation;
      report(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} on ${location.hash}`);
    });
  });
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) found.push(`console: ${message.text()}`);
  });
  return found;
}

/** Opens each route by its hash, as the apps' own navigation does, and lets it draw and load its data. */
async function walk(page: Page, paths: readonly string[], toUrl: (path: string) => string): Promise<void> {
  for (const path of paths) {
    await page.goto(toUrl(path));
    await page.waitForLoadState('networkidle');
  }
}

test('both front ends are sent the strict policy; the API a deny-all one', async ({ request }) => {
  for (const path of ['/japan1/', '/console/']) {
    const response = await request.get(path);
    const policy = response.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:\d+ wss:\/\/127\.0\.0\.1:\d+;/);
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
  }
  const api = await request.get('/api/health');
  expect(api.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
});

test('the watch sees a violation: an inline script and a foreign connection are blocked and reported', async ({
  page,
}) => {
  const found = await watchViolations(page);
  await page.goto(route('/pages/index/index'));
  await page.waitForLoadState('networkidle');
  expect(found).toEqual([]);
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true';
    document.body.append(script);
    await fetch('https://example.com/').catch(() => undefined);
    return (window as unknown as { inlineRan?: boolean }).inlineRan === true;
  });
  expect(ran).toBe(false);
  // the console's messages and the page's violation events arrive separately, in no set order: wait for each
  await expect.poll(() => found.join('\n')).toMatch(/script-src/);
  await expect.poll(() => found.join('\n')).toMatch(/connect-src blocked https:\/\/example\.com/);
});

test('the web app, signed in, runs its main pages without a violation', async ({ page }) => {
  const found = await watchViolations(page);
  const res = await page.request.post('/api/auth/login', {
    data: { account: DEMO.phone, password: DEMO.password, agree: true },
  });
  const login = (await res.json()) as { code: number; msg: string; data: { token: string; user_id: number } };
  expect(login.code, login.msg).toBe(1);
  await page.goto(route('/pages/index/index'));
  await page.evaluate(
    ({ token, userId }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('userId', String(userId));
    },
    { token: login.data.token, userId: login.data.user_id },
  );
  await page.reload();
  await walk(page, WEB_ROUTES, route);
  // the live stream (the WebSocket on this origin) is under the policy too
  await page.goto(route('/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203'));
  await page.waitForLoadState('networkidle');
  expect(found).toEqual([]);
});

test('the console, signed in as the administrator, runs its pages without a violation', async ({ page }) => {
  const found = await watchViolations(page);
  await loginAsAdmin(page);
  await walk(page, CONSOLE_ROUTES, consoleRoute);
  expect(found).toEqual([]);
});
