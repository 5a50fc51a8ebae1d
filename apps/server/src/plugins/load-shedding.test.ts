import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, translate } from '@kabuto/contract';
import { createTestApp, type TestApp } from '../test/harness.js';
import { LOOP_SAMPLE_MS, LoopPressure, watchEventLoop } from './load-shedding.js';

/**
 * Load shedding (issue 21, ADR 0040 and ADR 0062): past MAX_IN_FLIGHT API requests in hand, a new one is answered at once
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

/** Keeps the event loop busy for `ms`, as a turn of a saturated loop does. */
function stall(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy: the loop's timers come due and wait
  }
}

/** `turns` turns of the loop, each stalled for `ms`, with nothing idle between them. */
async function saturate(turns: number, ms: number): Promise<void> {
  for (let i = 0; i < turns; i++) {
    stall(ms);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('the event loop’s standing delay (ADR 0062)', () => {
  it('is not overloaded by one late sample, however late', () => {
    const changes: boolean[] = [];
    const pressure = new LoopPressure(100, 500, (over) => changes.push(over));
    pressure.sample(5, 0);
    pressure.sample(2_000, 2_020); // one long task: a collection, a big query on the embedded database
    expect(pressure.overloaded()).toBe(false);
    pressure.sample(3, 2_040);
    expect(pressure.overloaded()).toBe(false);
    expect(changes).toEqual([]);
  });

  it('is overloaded once every sample has been over the target for the interval, and no longer at the first under it', () => {
    const changes: boolean[] = [];
    const pressure = new LoopPressure(100, 500, (over) => changes.push(over));
    let at = 0;
    for (const lag of [150, 180, 120, 160]) {
      at += 150;
      pressure.sample(lag, at); // 150 .. 600: late for 450 ms
    }
    expect(pressure.overloaded()).toBe(false);
    pressure.sample(130, 650); // late for 500 ms
    expect(pressure.overloaded()).toBe(true);
    pressure.sample(140, 800);
    expect(pressure.overloaded()).toBe(true);
    expect(changes).toEqual([true]);

    pressure.sample(100, 820); // at the target: caught up
    expect(pressure.overloaded()).toBe(false);
    expect(changes).toEqual([true, false]);
    // late again: the interval starts over
    pressure.sample(200, 1_000);
    pressure.sample(200, 1_400);
    expect(pressure.overloaded()).toBe(false);
    pressure.sample(200, 1_500);
    expect(pressure.overloaded()).toBe(true);
  });

  it('a sample under the target in the middle starts the interval over', () => {
    const pressure = new LoopPressure(100, 500);
    pressure.sample(300, 0);
    pressure.sample(300, 400);
    pressure.sample(20, 420);
    pressure.sample(300, 700);
    pressure.sample(300, 1_100);
    expect(pressure.overloaded()).toBe(false);
    pressure.sample(300, 1_200);
    expect(pressure.overloaded()).toBe(true);
  });

  it('watches the real loop: turns that all run late make it overloaded, an idle moment clears it', async () => {
    const warnings: string[] = [];
    const log = {
      warn: (_fields: object, message: string) => {
        warnings.push(message);
      },
    };
    const { pressure, stop } = watchEventLoop(30, 100, log);
    try {
      await saturate(6, 80);
      expect(pressure.overloaded()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 4 * LOOP_SAMPLE_MS));
      expect(pressure.overloaded()).toBe(false);
      // the transitions are logged, once each
      expect(warnings).toEqual([
        'event loop behind: shedding new API requests',
        'event loop caught up: no longer shedding',
      ]);
    } finally {
      stop();
    }
  });

  it('sheds new API requests with 503 OVERLOADED while the loop is behind, never health, and answers again once it caught up', async () => {
    const app = await createTestApp({
      MAX_IN_FLIGHT: '0',
      MAX_EVENT_LOOP_DELAY_MS: '30',
      EVENT_LOOP_DELAY_WINDOW_MS: '100',
    });
    try {
      expect((await app.app.inject({ method: 'GET', url: '/api/market/status' })).statusCode).toBe(200);

      await saturate(6, 80);
      const [shed, health] = await Promise.all([
        app.app.inject({ method: 'GET', url: '/api/market/status?lang=en' }),
        app.app.inject({ method: 'GET', url: '/api/health' }),
      ]);
      expect(shed.statusCode).toBe(503);
      expect(shed.headers['retry-after']).toBe('1');
      expect(shed.json<{ code: number; msg: string }>()).toMatchObject({
        code: ERRORS.OVERLOADED.code,
        msg: translate('en', 'errors.OVERLOADED'),
      });
      expect(health.statusCode).toBe(200);

      await new Promise((resolve) => setTimeout(resolve, 4 * LOOP_SAMPLE_MS));
      expect((await app.app.inject({ method: 'GET', url: '/api/market/status' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is off with MAX_EVENT_LOOP_DELAY_MS=0', async () => {
    const app = await createTestApp({ MAX_IN_FLIGHT: '0', MAX_EVENT_LOOP_DELAY_MS: '0' });
    try {
      await saturate(6, 80);
      expect((await app.app.inject({ method: 'GET', url: '/api/market/status' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
