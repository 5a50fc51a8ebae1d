import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';

/**
 * Walks the console's API as the OpenAPI document describes it, so that a route added later is checked
 * without anyone remembering to: who may call what, and that no route edits money.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every console route, with its method. A new route fails this test until it is listed here. */
const CONSOLE_ROUTES = [
  // sessions
  'POST /api/console/login',
  'POST /api/console/logout',
  'GET /api/console/me',
  'POST /api/console/password',
  // the operator's own passkeys, and the console's passkey sign-in (ADR 0033)
  'GET /api/console/passkeys',
  'POST /api/console/passkeys/options',
  'POST /api/console/passkeys',
  'PATCH /api/console/passkeys/{id}',
  'POST /api/console/passkeys/{id}/remove',
  // the fresh proof of presence that adding or removing one needs (ADR 0049)
  'POST /api/console/step-up/options',
  'POST /api/console/step-up/verify',
  'POST /api/console/step-up/password',
  'POST /api/console/passkey/options',
  'POST /api/console/passkey/login',
  // review queues
  'GET /api/console/identity',
  'GET /api/console/identity/{id}',
  'POST /api/console/identity/{id}/approve',
  'POST /api/console/identity/{id}/reject',
  // the applicant's My Number, revealed with a reason and audited each time (ADR 0022)
  'POST /api/console/identity/{id}/my-number',
  'GET /api/console/bank-accounts',
  'GET /api/console/bank-accounts/{id}',
  'POST /api/console/bank-accounts/{id}/approve',
  'POST /api/console/bank-accounts/{id}/reject',
  'GET /api/console/deposits',
  'GET /api/console/deposits/{id}',
  'POST /api/console/deposits/{id}/approve',
  'POST /api/console/deposits/{id}/reject',
  'GET /api/console/withdrawals',
  'GET /api/console/withdrawals/{id}',
  'POST /api/console/withdrawals/{id}/approve',
  'POST /api/console/withdrawals/{id}/reject',
  // deposit reconciliation (ADR 0023)
  'POST /api/console/reconciliation/statements',
  'GET /api/console/reconciliation/transfers',
  'POST /api/console/reconciliation/transfers/{id}/deposit',
  'POST /api/console/reconciliation/credit',
  // the photos users uploaded (identity documents, bank books, transfer slips), and their thumbnails
  'GET /api/console/uploads/{id}',
  'GET /api/console/uploads/{id}/thumbnail',
  // settings, invitation codes, operators
  'GET /api/console/settings',
  'PUT /api/console/settings/withdrawal',
  'PUT /api/console/settings/deposit',
  'PUT /api/console/settings/customer_service',
  'PUT /api/console/settings/tax',
  'PUT /api/console/settings/opening',
  // four-eyes on the threshold and the deposit account (ADR 0034): a second administrator confirms
  'GET /api/console/settings/proposals',
  'POST /api/console/settings/proposals/{id}/confirm',
  'POST /api/console/settings/proposals/{id}/cancel',
  'GET /api/console/invitation-codes',
  'POST /api/console/invitation-codes',
  'POST /api/console/invitation-codes/{code}/deactivate',
  'GET /api/console/operators',
  'POST /api/console/operators',
  'POST /api/console/operators/{id}/deactivate',
  'POST /api/console/operators/{id}/unlock',
  // read-only lookups
  'GET /api/console/audit',
  'GET /api/console/users',
  'GET /api/console/users/{id}',
  'GET /api/console/users/{id}/ledger',
  'GET /api/console/users/{id}/statement',
  'GET /api/console/users/{id}/orders',
  'GET /api/console/users/{id}/positions',
  // follow-up products and dividend announcements (issue 17, ADR 0027)
  'GET /api/console/products',
  'POST /api/console/products',
  'POST /api/console/products/{id}/versions',
  'GET /api/console/dividends',
  'POST /api/console/dividends',
  // IPOs and distributions (issue 16): publish, fix the offer price once, cancel; nothing edits a result
  'GET /api/console/ipo/offerings',
  'POST /api/console/ipo/offerings',
  'POST /api/console/ipo/offerings/{id}/offer-price',
  'POST /api/console/ipo/offerings/{id}/cancel',
  // credit loans (issue 18, ADR 0028): the review queue, and products (administrators)
  'GET /api/console/loans',
  'GET /api/console/loans/{id}',
  'POST /api/console/loans/{id}/approve',
  'POST /api/console/loans/{id}/reject',
  'GET /api/console/loans/products',
  'POST /api/console/loans/products',
  'POST /api/console/loans/products/{id}/retire',
  'PUT /api/console/settings/loans',
  'PUT /api/console/settings/firm',
  // news: articles (editors and administrators) and feeds (administrators), ADR 0029
  'GET /api/console/news',
  'POST /api/console/news',
  'POST /api/console/news/preview',
  'GET /api/console/news/{id}',
  'PUT /api/console/news/{id}',
  'POST /api/console/news/{id}/publish',
  'POST /api/console/news/{id}/retract',
  'GET /api/console/news-feeds',
  'POST /api/console/news-feeds',
  'PUT /api/console/news-feeds/{id}',
  // the support queue (reviewers and administrators)
  'GET /api/console/support',
  'GET /api/console/support/{id}',
  'POST /api/console/support/{id}/reply',
  'POST /api/console/support/{id}/assign',
  'POST /api/console/support/{id}/state',
  // images: staff attach one to a conversation (reviewers and administrators), editors upload a banner's
  'POST /api/console/support/{id}/images',
  'POST /api/console/banners/images',
  // home banners (editors and administrators), ADR 0041
  'GET /api/console/banners',
  'POST /api/console/banners',
  'PUT /api/console/banners/{id}',
  'POST /api/console/banners/{id}/publish',
  'POST /api/console/banners/{id}/retract',
].sort();

/** Signing in (by password or passkey) is all that is open without a session. */
const PUBLIC = new Set([
  'POST /api/console/login',
  'POST /api/console/passkey/options',
  'POST /api/console/passkey/login',
]);
/** Callable before the one-time password is changed. */
const BEFORE_PASSWORD_CHANGE = new Set([
  'POST /api/console/logout',
  'GET /api/console/me',
  'POST /api/console/password',
]);
/**
 * The operator's own passkeys: every role, once the one-time password is changed, and an administrator
 * without a passkey too (registering one is the only way on, ADR 0033).
 */
const OWN_PASSKEYS = new Set(
  CONSOLE_ROUTES.filter((r) => r.includes(' /api/console/passkeys') || r.includes(' /api/console/step-up/')),
);
/** What an administrator without a passkey may call while CONSOLE_ADMIN_PASSKEY is `required`. */
const HELD_ADMIN_ROUTES = new Set([...BEFORE_PASSWORD_CHANGE, ...OWN_PASSKEYS]);

/**
 * What a reviewer may call; every other console route is for administrators only. Listed this way round,
 * a new route is an administrator's until someone decides otherwise.
 */
const REVIEWER_ROUTES = new Set([
  ...BEFORE_PASSWORD_CHANGE,
  ...OWN_PASSKEYS,
  ...CONSOLE_ROUTES.filter((r) =>
    /^(GET|POST) \/api\/console\/(identity|bank-accounts|deposits|withdrawals|reconciliation|support)(\/|$)/.test(
      r,
    ),
  ),
  'GET /api/console/uploads/{id}',
  'GET /api/console/uploads/{id}/thumbnail',
  'GET /api/console/settings',
  'GET /api/console/settings/proposals',
  'GET /api/console/invitation-codes',
  'GET /api/console/audit',
  'GET /api/console/users',
  'GET /api/console/users/{id}',
  'GET /api/console/users/{id}/ledger',
  'GET /api/console/users/{id}/statement',
  'GET /api/console/users/{id}/orders',
  'GET /api/console/users/{id}/positions',
  'GET /api/console/products',
  'GET /api/console/dividends',
  'GET /api/console/ipo/offerings',
  'GET /api/console/loans',
  'GET /api/console/loans/{id}',
  'POST /api/console/loans/{id}/approve',
  'POST /api/console/loans/{id}/reject',
  'GET /api/console/loans/products',
]);

/**
 * Routes that publish an offering's terms (issue 16): an IPO's tentative range, offer price and quantity are
 * the issuer's published terms, set before anyone applies (the offer price once, inside the range, before
 * the close) and audited; they move no one's money and change no result.
 */
const OFFERING_TERMS = new Set([
  'POST /api/console/ipo/offerings',
  'POST /api/console/ipo/offerings/{id}/offer-price',
]);

/**
 * Figures a route's request may name because they are a reviewer's decision on what a user applied for,
 * not an edit: a loan's approval names the amount lent (at most the amount applied for, within policy and
 * the legal caps, checked by the server); the money then moves by the disbursement's ledger entry (ADR 0028).
 */
const DECISION_FIGURES: Record<string, string[]> = {
  'POST /api/console/loans/{id}/approve': ['amount'],
};

/** Words that would mean a request sets money or market results by hand. */
const MONEY_WORDS = /balance|amount|price|fill|profit|quantity|qty|cash|position|pnl|fee/i;

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}
type Document = { paths: Record<string, Record<string, Operation>> };

function consoleRoutes(doc: Document): { route: string; method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/console/'))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        route: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        op,
      })),
    );
}

/** Every property name anywhere in a JSON schema (nested objects, arrays, unions). */
function propertyNames(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap(propertyNames);
  const node = schema as Record<string, unknown>;
  const properties = node['properties'];
  const own = properties !== null && typeof properties === 'object' ? Object.keys(properties) : [];
  return [...own, ...Object.values(node).flatMap(propertyNames)];
}

/** "METHOD /path" of every route in Fastify's printed radix tree (each line a segment under its parent). */
function routerRoutes(tree: string): string[] {
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(m[2] ?? '');
    for (const method of m[3]?.split(', ') ?? []) out.push(`${method} ${stack.join('')}`);
  }
  return out;
}

const concrete = (path: string) => path.replace('{id}', '1').replace('{code}', 'NOSUCHCODE');

let opCounter = 0;
async function operatorHeaders(
  role: 'reviewer' | 'editor' | 'administrator',
  mustChangePassword = false,
  on: TestApp = t,
) {
  opCounter += 1;
  const username = `walk${opCounter}`;
  const password = 'operator-password-1';
  await on.database.db.insert(operators).values({
    username,
    displayName: username,
    passwordHash: await hashPassword(password),
    role,
    mustChangePassword,
  });
  const res = await on.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username, password },
  });
  return { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
}

describe('the console API, walked from its OpenAPI document', () => {
  let routes: ReturnType<typeof consoleRoutes>;
  beforeAll(async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    routes = consoleRoutes(res.json<Document>());
  });

  const call = (r: { method: string; path: string }, headers: Record<string, string> = {}, on: TestApp = t) =>
    on.app.inject({
      method: r.method as 'GET' | 'POST' | 'PUT' | 'PATCH',
      url: `${concrete(r.path)}?lang=en`,
      headers,
      ...(r.method === 'GET' ? {} : { payload: {} }),
    });

  it('has exactly the listed routes', () => {
    expect(routes.map((r) => r.route).sort()).toEqual(CONSOLE_ROUTES);
  });

  it('hides no console route from the document (the router holds exactly the documented ones)', () => {
    const tree = t.app.printRoutes({ commonPrefix: false });
    const registered = routerRoutes(tree)
      .filter((r) => r.includes(' /api/console/') && !r.startsWith('HEAD '))
      .map((r) => r.replace(/:(\w+)/g, '{$1}'))
      .sort();
    expect(registered).toEqual(CONSOLE_ROUTES);
  });

  it('answers 401 without a session, and to a user token in either header', async () => {
    const user = await registerAndLogin(t);
    const attempts: Record<string, string>[] = [
      {},
      { token: user.token },
      { authorization: `Bearer ${user.token}` },
    ];
    for (const r of routes.filter((x) => !PUBLIC.has(x.route))) {
      for (const headers of attempts) {
        const res = await call(r, headers);
        expect(res.statusCode, `${r.route} ${JSON.stringify(Object.keys(headers))}`).toBe(401);
        expect(body(res)).toMatchObject({ code: 401, data: null });
      }
    }
  });

  it('answers 1403 to an operator who has not changed the one-time password', async () => {
    const fresh = await operatorHeaders('administrator', true);
    for (const r of routes.filter((x) => !PUBLIC.has(x.route) && !BEFORE_PASSWORD_CHANGE.has(x.route))) {
      const res = await call(r, fresh);
      expect(body(res).code, r.route).toBe(1403);
    }
  });

  it('answers 403 to a reviewer on every administrator route, and never on a reviewer route', async () => {
    const reviewer = await operatorHeaders('reviewer');
    const adminRoutes = routes.filter((r) => !PUBLIC.has(r.route) && !REVIEWER_ROUTES.has(r.route));
    expect(adminRoutes.length).toBeGreaterThanOrEqual(9);
    for (const r of adminRoutes) {
      const res = await call(r, reviewer);
      expect(res.statusCode, r.route).toBe(403);
      expect(body(res)).toMatchObject({ code: 403, msg: 'You do not have access to this' });
    }
    for (const r of routes.filter(
      (x) => REVIEWER_ROUTES.has(x.route) && x.route !== 'POST /api/console/logout',
    )) {
      const res = await call(r, reviewer);
      expect([401, 403], `${r.route} ${res.body}`).not.toContain(res.statusCode);
    }
  });

  it('lets an editor write news and banners and nothing else (ADR 0029, ADR 0041)', async () => {
    const editor = await operatorHeaders('editor');
    const articles = (r: string) => /^(GET|POST|PUT) \/api\/console\/(news|banners)(\/|$)/.test(r);
    for (const r of routes.filter((x) => !PUBLIC.has(x.route) && !BEFORE_PASSWORD_CHANGE.has(x.route))) {
      const res = await call(r, editor);
      if (articles(r.route) || OWN_PASSKEYS.has(r.route))
        expect([401, 403], `${r.route} ${res.body}`).not.toContain(res.statusCode);
      else expect(res.statusCode, r.route).toBe(403);
    }
  });

  it('holds an administrator without a passkey to its registration when passkeys are required (1820)', async () => {
    const required = await createTestApp({ CONSOLE_ADMIN_PASSKEY: 'required' });
    try {
      const admin = await operatorHeaders('administrator', false, required);
      const reviewer = await operatorHeaders('reviewer', false, required);
      for (const r of routes.filter((x) => !PUBLIC.has(x.route) && x.route !== 'POST /api/console/logout')) {
        const res = await call(r, admin, required);
        if (HELD_ADMIN_ROUTES.has(r.route)) {
          expect([401, 403], `${r.route} ${res.body}`).not.toContain(res.statusCode);
        } else {
          expect(res.statusCode, r.route).toBe(403);
          expect(body(res), r.route).toMatchObject({ code: 1820, data: null });
        }
      }
      // the hold is the administrators': a reviewer without a passkey keeps its queues
      const queue = await call({ method: 'GET', path: '/api/console/identity' }, reviewer, required);
      expect(queue.statusCode, queue.body).toBe(200);
    } finally {
      await required.close();
    }
  });

  it('answers bad input with an envelope and a 4xx, never a 500', async () => {
    const admin = await operatorHeaders('administrator');
    const ids = ['0', '-1', 'abc', '99999999999', '1.5', '%00', 'x'.repeat(300)];
    const query = `?limit=abc&offset=-1&from=yesterday&to=2026-02-30&status=zzz&q=${'9'.repeat(60)}&user_id=x`;
    const payloads: (string | undefined)[] = [undefined, '{}', '[]', '"x"', 'null', '{"reason":', '{"a":1}'];
    const skip = new Set(['POST /api/console/logout', 'POST /api/console/login']);
    for (const r of routes.filter((x) => !skip.has(x.route))) {
      for (const id of r.path.includes('{') ? ids : ['']) {
        const url = `${r.path.replace(/\{\w+\}/, id)}${query}`;
        for (const payload of r.method === 'GET' ? [undefined] : payloads) {
          const res = await t.app.inject({
            method: r.method as 'GET' | 'POST' | 'PUT' | 'PATCH',
            url,
            headers: { ...admin, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(payload === undefined ? {} : { payload }),
          });
          const where = `${r.route} ${url} ${payload ?? ''}`;
          expect(res.statusCode, `${where} ${res.body}`).toBeLessThan(500);
          const answer = body(res);
          expect(typeof answer.code, where).toBe('number');
          expect(typeof answer.msg, where).toBe('string');
        }
      }
    }
  });

  it('answers a path the router refuses (over-long parameter, bad encoding) in the envelope, localized', async () => {
    const admin = await operatorHeaders('administrator');
    for (const id of ['x'.repeat(300), '%zz']) {
      const res = await t.app.inject({ url: `/api/console/users/${id}/orders?lang=jp`, headers: admin });
      expect(res.statusCode).toBe(400);
      expect(body(res)).toMatchObject({ code: 400, msg: '入力内容をご確認ください' });
    }
  });

  it('has no route that edits money: no request of a non-GET route names a balance, amount, price or the like', () => {
    const writes = routes.filter((r) => r.method !== 'GET' && !OFFERING_TERMS.has(r.route));
    expect(writes.length).toBeGreaterThan(10);
    for (const r of writes) {
      const names = [
        ...(r.op.parameters ?? []).map((p) => p.name),
        ...Object.values(r.op.requestBody?.content ?? {}).flatMap((c) => propertyNames(c.schema)),
      ];
      expect(
        names.filter((n) => MONEY_WORDS.test(n) && !(DECISION_FIGURES[r.route] ?? []).includes(n)),
        r.route,
      ).toEqual([]);
    }
  });

  it('still sees the schemas it walks (the money walk would pass vacuously otherwise)', () => {
    const put = routes.find((r) => r.route === 'PUT /api/console/settings/withdrawal');
    const names = Object.values(put?.op.requestBody?.content ?? {}).flatMap((c) => propertyNames(c.schema));
    expect(names).toEqual(expect.arrayContaining(['min_yen', 'windows', 'start', 'end']));
  });
});
