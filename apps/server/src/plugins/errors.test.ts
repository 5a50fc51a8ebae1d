import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANG_CODES, MESSAGES, localeOf } from '@kabuto/contract';
import { body, createTestApp, type TestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Routes that answer without a session. Every other route in the OpenAPI document must refuse one. */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/sendSmsCode',
  'POST /api/auth/register',
  'POST /api/auth/login',
  // Passkey sign-in (ADR 0031): the challenge, then the assertion that names its account.
  'POST /api/auth/passkey/options',
  'POST /api/auth/passkey/login',
  // Market data is public: browsing needs no account.
  'GET /api/market/status',
  'GET /api/market/indices',
  'GET /api/market/list',
  'GET /api/market/sectors',
  'GET /api/market/search',
  'GET /api/market/stock',
  'GET /api/market/bars',
  'GET /api/market/board',
  'GET /api/trade/rules',
  // The published customer-service channels, and the console's sign-in (console routes take an operator's
  // bearer token, so a user's `token` header is refused there as well).
  'GET /api/customer-service',
  'GET /api/about',
  'POST /api/console/login',
  // an operator's passkey sign-in (ADR 0033), like the password sign-in beside it
  'POST /api/console/passkey/options',
  'POST /api/console/passkey/login',
  // Published products, articles and derived market events can be read before signing in, like prices.
  'GET /api/products',
  'GET /api/products/{id}',
  'GET /api/news',
  'GET /api/news/events',
  'GET /api/news/{id}',
  // The home's published banners and a live banner's picture (ADR 0041), shown logged out too.
  'GET /api/banners',
  'GET /api/banners/{id}/image',
]);

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

async function routes(): Promise<string[]> {
  const doc = body(await t.app.inject({ url: '/api/openapi.json' })) as unknown as OpenApi;
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

describe('the OpenAPI document', () => {
  it('lists every endpoint, generated from the zod schemas', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<OpenApi & { openapi: string }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(await routes()).toEqual(
      expect.arrayContaining([
        'GET /api/index/getUserInfo',
        'GET /api/index/getCzhiurl',
        'GET /api/index/withdrawal',
        'POST /api/auth/login',
        'POST /api/user/changePassword',
      ]),
    );
    const login = doc.paths['/api/auth/login']?.['post'] as { requestBody?: unknown };
    expect(JSON.stringify(login.requestBody)).toContain('"account"');
  });
});

describe('unauthorized access', () => {
  it('every protected endpoint answers 401 with no token, an unknown token or a malformed one', async () => {
    const protectedRoutes = (await routes()).filter((r) => !PUBLIC.has(r));
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(7);
    for (const route of protectedRoutes) {
      const [method, url] = route.split(' ') as ['GET' | 'POST', string];
      for (const token of [undefined, 'x'.repeat(43), '']) {
        const res = await t.app.inject({
          method,
          url: `${url}?lang=en`,
          headers: token === undefined ? {} : { token },
          ...(method === 'POST' ? { payload: {} } : {}),
        });
        expect(res.statusCode, `${route} with token ${String(token)}`).toBe(401);
        expect(body(res)).toEqual({
          code: 401,
          msg: 'User information has expired, please log in again',
          data: null,
        });
      }
    }
  });

  it.each(LANG_CODES)('says the session expired in %s', async (lang) => {
    const res = await t.app.inject({ url: `/api/index/getUserInfo?lang=${lang}` });
    expect(body(res).msg).toBe(MESSAGES[localeOf(lang)].errors.UNAUTHENTICATED);
  });

  it('defaults to Japanese for a missing or unknown lang', async () => {
    for (const q of ['', '?lang=xx', '?lang=']) {
      expect(body(await t.app.inject({ url: `/api/index/getUserInfo${q}` })).msg).toBe(
        'ログイン情報の有効期限が切れました。もう一度ログインしてください',
      );
    }
  });
});

describe('malformed input never produces a 5xx', () => {
  const cases: [string, InjectOptions][] = [
    [
      'bad JSON',
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: '{"account":',
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'empty JSON body',
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: '',
        headers: { 'content-type': 'application/json' },
      },
    ],
    ['JSON array', { method: 'POST', url: '/api/auth/login', payload: [1, 2] }],
    [
      'wrong types',
      { method: 'POST', url: '/api/auth/login', payload: { account: 123, password: ['x'], agree: 'yes' } },
    ],
    [
      'null body',
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: 'null',
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'unknown fields',
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: { account: '09011112222', password: 'abcdef', agree: true, admin: true },
      },
    ],
    [
      'huge body',
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: { account: 'x'.repeat(200_000), password: 'a', agree: true },
      },
    ],
    [
      'wrong content type',
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: 'account=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    ],
    [
      'text body',
      {
        method: 'POST',
        url: '/api/auth/register',
        payload: 'hello',
        headers: { 'content-type': 'text/plain' },
      },
    ],
    [
      'prototype pollution',
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: '{"__proto__":{"x":1},"account":"1","password":"1","agree":true}',
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'deeply nested',
      {
        method: 'POST',
        url: '/api/auth/sendSmsCode',
        payload: `{"phone":${'['.repeat(5000)}${']'.repeat(5000)}}`,
        headers: { 'content-type': 'application/json' },
      },
    ],
    ['unknown route', { method: 'GET', url: '/api/nope' }],
    ['wrong method', { method: 'DELETE', url: '/api/auth/login' }],
    ['bad query', { method: 'GET', url: '/api/index/getUserInfo?user_id[]=1&user_id=99999999999999999999' }],
  ];

  it.each(cases)('%s → a 4xx envelope', async (_name, request) => {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const b = body(res);
    expect(typeof b.code).toBe('number');
    expect(b.code).not.toBe(1);
    expect(b.msg.length).toBeGreaterThan(0);
  });

  it('names the field and the rule of each failure, in the user’s language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login?lang=en',
      payload: { account: '09011112222', password: 'abcdef', agree: true, admin: true },
    });
    expect(res.statusCode).toBe(400);
    expect(body(res).data).toEqual({
      issues: [
        { field: 'admin', rule: 'unrecognized_keys', message: 'admin is not a field this request accepts' },
      ],
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login?lang=jp',
      payload: '{"account":',
      headers: { 'content-type': 'application/json' },
    });
    expect(body(bad)).toMatchObject({ code: 400, msg: 'リクエスト本文が正しいJSONではありません' });
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login?lang=en',
      payload: { account: 'x'.repeat(200_000) },
    });
    expect(res.statusCode).toBe(413);
    expect(body(res)).toMatchObject({ code: 413, msg: 'The request is too large' });
  });
});

describe('a 5xx never shows internals', () => {
  it('answers the generic message and keeps the cause in the log only', async () => {
    const boom = await createTestApp({}, (app) => {
      app.get('/api/boom', async () => {
        throw new Error('secret connection string postgres://admin:hunter2@db');
      });
    });
    try {
      const res = await boom.app.inject({ url: '/api/boom?lang=en' });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('hunter2');
      expect(body(res)).toEqual({
        code: 500,
        msg: 'Something went wrong on our side. Please try again later',
        data: null,
      });
    } finally {
      await boom.close();
    }
  });
});

describe('health and readiness', () => {
  it('health is liveness: the process answers, without the database', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toMatchObject({ status: 'ok', realtime: { pubsub: 'local' } });
    expect(body(res).data).not.toHaveProperty('database');
  });

  it('readiness reports each dependency', async () => {
    const res = await t.app.inject({ url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toMatchObject({
      status: 'ok',
      database: { ok: true },
      pubsub: { ok: true, kind: 'local' },
    });
  });

  it('readiness answers 503 in the envelope while the database does not answer, and health stays 200', async () => {
    const down = await createTestApp();
    try {
      down.app.ctx.database.ping = () => Promise.reject(new Error('connection refused'));
      const ready = await down.app.inject({ url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(body(ready)).toMatchObject({
        code: 1,
        data: { status: 'unavailable', database: { ok: false } },
      });
      expect((await down.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await down.close();
    }
  }, 90_000); // a second app (its migrations) on a loaded machine
});

describe('the web entry', () => {
  it('redirects / to /japan1/', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/japan1/');
  });
});
