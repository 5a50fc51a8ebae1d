import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from './app.js';
import { createTestApp, type TestApp } from './test/harness.js';

/** The access log (issue 21): ordinary requests cost no log line; failures and slow requests always do. */
const lines: Record<string, unknown>[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    { SLOW_REQUEST_MS: '40' },
    (app) => {
      app.get('/api/test-boom', async () => {
        throw new Error('boom');
      });
      app.get('/api/test-slow', async () => {
        await new Promise((resolve) => setTimeout(resolve, 60));
        return { ok: true };
      });
    },
    { logStream: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) } },
  );
});
afterAll(() => t.close());

const accessLines = () => lines.filter((l) => typeof l['status'] === 'number');

describe('the access log', () => {
  it('writes nothing for an ordinary request at the default sample of 0', async () => {
    lines.length = 0;
    const response = await t.app.inject({ url: '/api/market/status' });
    expect(response.statusCode).toBe(200);
    expect(lines).toEqual([]);
  });

  it('always writes a failed request, with its status and time', async () => {
    lines.length = 0;
    const response = await t.app.inject({ url: '/api/test-boom' });
    expect(response.statusCode).toBe(500);
    expect(accessLines()).toEqual([
      expect.objectContaining({ method: 'GET', url: '/api/test-boom', status: 500, msg: 'request failed' }),
    ]);
  });

  it('always writes a request slower than SLOW_REQUEST_MS', async () => {
    lines.length = 0;
    await t.app.inject({ url: '/api/test-slow' });
    const [line] = accessLines();
    expect(line).toMatchObject({ url: '/api/test-slow', status: 200, msg: 'slow request' });
    expect(line?.['ms']).toBeGreaterThanOrEqual(40);
  });
});

describe('the log format', () => {
  it('is one readable line per event on a terminal, JSON lines otherwise, and what LOG_FORMAT says when set', () => {
    const pretty = {
      target: 'pino-pretty',
      options: expect.objectContaining({ singleLine: true }) as unknown,
    };
    expect(loggerOptions({ LOG_FORMAT: 'auto', LOG_LEVEL: 'info' }, true)).toEqual({
      level: 'info',
      transport: pretty,
    });
    expect(loggerOptions({ LOG_FORMAT: 'auto', LOG_LEVEL: 'info' }, false)).toEqual({ level: 'info' });
    expect(loggerOptions({ LOG_FORMAT: 'json', LOG_LEVEL: 'warn' }, true)).toEqual({ level: 'warn' });
    expect(loggerOptions({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' }, false)).toEqual({
      level: 'debug',
      transport: pretty,
    });
  });
});
