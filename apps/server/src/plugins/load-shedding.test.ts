import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, translate } from '@kabuto/contract';
import { createTestApp, type TestApp } from '../test/harness.js';

/**
 * Load shedding (issue 21, ADR 0040): past MAX_IN_FLIGHT API requests in hand, a new one is answered at once
 * with 503 OVERLOADED and Retry-After; health is never shed; a slot comes back when a response closes,
 * answered or aborted. Over real HTTP, since the count follows the socket's response.
 */
let t: TestApp;
let base = '';
const held: (() => void)[] = [];
let arrived = 0;

beforeAll(async () => {
  t = await createTestApp({ MAX_IN_FLIGHT: '2' }, (app) => {
    app.get('/api/test-hold', async () => {
      arrived++;
      await new Promise<void>((resolve) => held.push(resolve));
      return { code: 1, msg: 'ok', data: null };
    });
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}`;
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await t.close();
});

/** Waits until the held route has seen `n` requests in all. */
async function arrivals(n: number): Promise<void> {
  for (let i = 0; i < 200 && arrived < n; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(arrived).toBe(n);
}

describe('load shedding', () => {
  it('answers 503 OVERLOADED with Retry-After in the request language once MAX_IN_FLIGHT requests are in hand, and lets health through', async () => {
    const first = fetch(`${base}/api/test-hold`);
    const second = fetch(`${base}/api/test-hold`);
    await arrivals(2);

    const shed = await fetch(`${base}/api/market/status?lang=ja`);
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    const body = (await shed.json()) as { code: number; msg: string };
    expect(body.code).toBe(ERRORS.OVERLOADED.code);
    expect(body.code).toBe(1920);
    expect(body.msg).toBe(translate('ja', 'errors.OVERLOADED'));
    expect(body.msg).not.toBe(translate('en', 'errors.OVERLOADED'));
    // the held route saw no third request: a shed one does no work
    expect(arrived).toBe(2);

    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);

    for (const release of held.splice(0)) release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    const after = await fetch(`${base}/api/market/status`);
    expect(after.status).toBe(200);
  });

  it('gives a slot back when the client gives up on its request', async () => {
    arrived = 0;
    const abort = new AbortController();
    const abandoned = fetch(`${base}/api/test-hold`, { signal: abort.signal }).catch(() => 'aborted');
    const kept = fetch(`${base}/api/test-hold`);
    await arrivals(2);
    expect((await fetch(`${base}/api/market/status`)).status).toBe(503);

    abort.abort();
    expect(await abandoned).toBe('aborted');
    // the server sees the socket close a moment later; one slot is free again while `kept` is still held
    let status = 503;
    for (let i = 0; i < 100 && status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await fetch(`${base}/api/market/status`)).status;
    }
    expect(status).toBe(200);

    for (const release of held.splice(0)) release();
    expect((await kept).status).toBe(200);
  });
});
