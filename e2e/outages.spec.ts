import { expect, test, type WebSocketRoute } from '@playwright/test';
import { route } from './support/app.js';

/**
 * The web app during an outage (issue 22, ADR 0032): while the API answers 503 (its database restarting),
 * the app retries its reads with backoff and says it is reconnecting; at the first success the notice goes
 * and the page shows its data. The 503 is the server's own envelope (apps/server/src/db/outage.test.ts).
 */
test('reads answered 503 are retried under a "reconnecting" notice, which goes once the server answers', async ({
  page,
}) => {
  let down = true;
  let refused = 0;
  await page.route('**/api/**', async (request) => {
    if (down && request.request().method() === 'GET' && !request.request().url().includes('/api/ws')) {
      refused += 1;
      await request.fulfill({
        status: 503,
        headers: { 'retry-after': '5', 'content-type': 'application/json' },
        body: JSON.stringify({ code: 1760, msg: 'ただいまデータベースに接続できません', data: null }),
      });
      return;
    }
    await request.continue();
  });
  await page.goto(route('/pages/market/market'));
  const notice = page.getByTestId('reconnecting');
  await expect(notice).toHaveText(/サーバーに再接続しています/);
  await expect(notice).toHaveAttribute('role', 'status');
  // the same reads are asked again (with backoff), not given up after one failure
  const first = refused;
  await expect.poll(() => refused, { timeout: 8000 }).toBeGreaterThan(first);

  down = false;
  await expect(notice).toBeHidden({ timeout: 15_000 });
  // the page shows its data: the ranking's rows (which stocks lead depends on the simulated day)
  await expect(page.getByRole('tabpanel').getByTestId('stock-row').first()).toBeVisible();
});

test('quotes are marked stale while the server says its live stream is interrupted, and not after', async ({
  page,
}) => {
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api\/ws/, (ws) => {
    ws.connectToServer();
    sockets.push(ws);
  });
  await page.goto(route('/pages/market/market'));
  await expect.poll(() => sockets.length).toBeGreaterThan(0);
  const notice = page.getByTestId('quotes-stale');
  await expect(notice).toBeHidden();
  // what the server sends when it loses Redis (apps/server/src/realtime/redis-outage.test.ts), then when back
  sockets.at(-1)?.send(JSON.stringify({ type: 'stream', stale: true }));
  await expect(notice).toHaveText(/リアルタイム株価の配信が途切れています/);
  await expect(notice).toHaveAttribute('role', 'status');
  sockets.at(-1)?.send(JSON.stringify({ type: 'stream', stale: false }));
  await expect(notice).toBeHidden();
});
