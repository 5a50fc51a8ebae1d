import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yen } from '@kabuto/contract';
import { bankAccounts, operators } from './db/schema.js';
import { multipart, pngBytes } from './lib/images.js';
import { hashPassword } from './lib/passwords.js';
import { fundDemoCash } from './modules/ledger/ledger.js';
import {
  body,
  createTestApp,
  registerAndLogin,
  TEST_NOW,
  type Envelope,
  type TestApp,
} from './test/harness.js';
import { SoftAuthenticator } from './test/soft-authenticator.js';
import { TestMarket } from './test/test-market.js';

/**
 * The authorization matrix between two customers (issue 22), grown from the OpenAPI document: customer A owns
 * one of every kind of resource a customer can own (an upload, a bank account, a deposit notice, an open order,
 * a margin position, a product record, an IPO application, a loan, a message, a support conversation), then
 * customer B
 *   - calls every customer route that takes an identifier with A's identifier, and is refused;
 *   - reads every customer list and sees nothing of A's;
 * and A's own view of everything is the same before and after. Every identifier a customer route takes must be
 * classified below as owned (then it is tried) or public (stock codes, published products, news): a new route
 * with an unclassified identifier fails the first test until someone decides which it is. The console's roles
 * have their own matrix in modules/console/access.test.ts.
 */

/** Owned identifiers: "METHOD path name" → the fixture's value of A's that B tries. */
const OWNED: Record<string, keyof Fixture> = {
  'GET /api/index/getUserInfo user_id': 'userId',
  'GET /api/index/withdrawal user_id': 'userId',
  'POST /api/trade/closePosition position_id': 'positionId',
  'POST /api/trade/cancelOrder order_no': 'orderNo',
  'GET /api/trade/order order_no': 'orderNo',
  'GET /api/uploads/{id} id': 'uploadId',
  'POST /api/messages/read ids': 'messageId',
  'POST /api/identity front_upload_id': 'uploadId',
  'POST /api/identity back_upload_id': 'uploadId',
  'POST /api/bank-accounts image_upload_id': 'uploadId',
  'POST /api/bank-accounts replaces_id': 'bankAccountId',
  'POST /api/deposits proof_upload_id': 'uploadId',
  'POST /api/withdrawals bank_account_id': 'bankAccountId',
  'POST /api/products/records/{id}/sell id': 'productRecordId',
  'POST /api/ipo/applications/{id}/withdraw id': 'applicationId',
  'POST /api/ipo/applications/{id}/confirm id': 'applicationId',
  'POST /api/ipo/applications/{id}/decline id': 'applicationId',
  'GET /api/loans/{id} id': 'loanId',
  'POST /api/loans/{id}/repay id': 'loanId',
  'POST /api/support/messages upload_id': 'uploadId',
  // passkeys, step-up and the user's sessions (ADR 0031)
  'PATCH /api/passkeys/{id} id': 'passkeyId',
  'POST /api/passkeys/{id}/remove id': 'passkeyId',
  'POST /api/sessions/{id}/revoke id': 'sessionId',
  'POST /api/step-up/options bank_account_id': 'bankAccountId',
  'POST /api/step-up/options replaces_id': 'bankAccountId',
  'POST /api/step-up/options passkey_id': 'passkeyId',
  'POST /api/step-up/sms bank_account_id': 'bankAccountId',
  'POST /api/step-up/sms replaces_id': 'bankAccountId',
  'POST /api/step-up/sms passkey_id': 'passkeyId',
};

/**
 * Owned identifiers a route may take from anyone and apply to the caller's own rows only, answering success:
 * marking messages read marks the caller's among the ids. A's view, compared before and after, proves it.
 */
const IGNORED = new Set(['POST /api/messages/read ids']);

/** An identifier of each kind that names nothing: B's answer with A's must be the same as with this. */
const MISSING: Record<keyof Fixture, string | number> = {
  userId: 2_000_000_000,
  uploadId: 'f'.repeat(64),
  bankAccountId: 2_000_000_000,
  orderNo: '',
  positionId: 2_000_000_000,
  productRecordId: 2_000_000_000,
  applicationId: 2_000_000_000,
  loanId: 2_000_000_000,
  messageId: 2_000_000_000,
  passkeyId: 2_000_000_000,
  sessionId: 2_000_000_000,
};

/**
 * The rest of each body, valid for B, so that the identifier is what the route decides on: by path, or by
 * "METHOD path name" where one path takes several shapes.
 */
const BASE: Record<string, Record<string, unknown>> = {
  'POST /api/step-up/options bank_account_id': { action: 'withdrawal', amount: yen(20_000) },
  'POST /api/step-up/options replaces_id': {
    action: 'bank_account',
    bank_code: '0001',
    branch_code: '100',
    account_number: '1111111',
  },
  'POST /api/step-up/options passkey_id': { action: 'remove_passkey' },
  'POST /api/step-up/sms bank_account_id': { action: 'withdrawal', amount: yen(20_000) },
  'POST /api/step-up/sms replaces_id': {
    action: 'bank_account',
    bank_code: '0001',
    branch_code: '100',
    account_number: '1111111',
  },
  'POST /api/step-up/sms passkey_id': { action: 'remove_passkey' },
  '/api/passkeys/{id}': { name: 'Stolen' },
  '/api/trade/closePosition': { price_type: 'market', quantity: 100 },
  '/api/bank-accounts': {
    holder_name: 'ヤマダ タロウ',
    bank_code: '0001',
    branch_code: '100',
    account_number: '1111111',
  },
  '/api/deposits': { amount: yen(50_000), transfer_date: '2026-11-24' },
  '/api/withdrawals': { amount: yen(20_000), txn_password: '123456' },
  '/api/support/messages': { text: 'hello' },
  '/api/loans/{id}/repay': { amount: yen(1_000) },
};

/** Identifiers of what anyone may read or act on with their own money: they name no one's resource. */
const PUBLIC: Record<string, string> = {
  'GET /api/market/stock code': 'a stock code',
  'GET /api/market/board code': 'a stock code',
  'GET /api/market/bars code': 'a stock code',
  'POST /api/watchlist/add code': 'a stock code',
  'POST /api/watchlist/remove code': 'a stock code',
  'POST /api/trade/placeOrder code': 'a stock code',
  'GET /api/banks/{code}/branches code': 'a Zengin bank code',
  'GET /api/products/{id} id': 'a published product',
  'POST /api/products/{id}/buy id': 'a published product (bought with the caller’s own cash)',
  'GET /api/ipo/offerings/{id} id': 'a published offering',
  'GET /api/ipo/offerings/{id}/draw id': 'a published draw record (ADR 0026: verifiable by anyone)',
  'POST /api/ipo/offerings/{id}/applications id': 'a published offering (applied for as the caller)',
  'POST /api/loans id_number': 'the applicant’s own identity-document number, not a reference',
  'GET /api/news code': 'a stock code',
  'GET /api/news/{id} id': 'a published article',
  'GET /api/banners/{id}/image id': 'a published banner’s picture (public, ADR 0041)',
  // WebAuthn's credential id inside an authenticator's answer: the server looks the credential up by it and
  // believes nothing until its signature verifies against that credential's public key
  'POST /api/auth/passkey/login id': 'a WebAuthn credential id, proven by its signature',
  'POST /api/passkeys id': 'a WebAuthn credential id, proven by its signature',
  'POST /api/step-up/verify id': 'a WebAuthn credential id, proven by its signature',
  // an SMS step-up (ADR 0031): looked up among the caller's own challenges only (sms-step-up.test.ts tries
  // another user's), and the code is what the user types from the SMS, not a reference
  'POST /api/step-up/verify challenge_id': 'a random id, matched only among the caller’s own step-ups',
  'POST /api/step-up/verify code': 'the SMS code the user types',
};

/** Names that identify something: a path parameter, or a query or body field named like an id or a code. */
const IDENTIFIER = /(^id$|_id$|_no$|^ids$|^code$|^id_)/;

interface Fixture {
  userId: number;
  uploadId: string;
  bankAccountId: number;
  orderNo: string;
  positionId: number;
  productRecordId: number;
  applicationId: number;
  loanId: number;
  messageId: number;
  passkeyId: number;
  sessionId: number;
}

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

let t: TestApp;
let market: TestMarket | undefined;
let a: Awaited<ReturnType<typeof registerAndLogin>>;
let b: Awaited<ReturnType<typeof registerAndLogin>>;
let fixture: Fixture;
let doc: { paths: Record<string, Record<string, Operation>> };
const SUPPORT_TEXT = 'A-private-support-question-7f3a';
const ORIGIN = 'https://kabuto.example';
const RP_ID = 'kabuto.example';

const send = (method: string, url: string, token: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET' | 'POST' | 'PATCH',
    url: `${url}${url.includes('?') ? '&' : '?'}lang=en`,
    headers: { token, 'idempotency-key': randomUUID() },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

function data<T = unknown>(res: LightMyRequestResponse, what: string): Envelope<T>['data'] {
  const envelope = body<T>(res);
  if (envelope.code !== 1) throw new Error(`${what}: ${res.body}`);
  return envelope.data;
}

async function operator(): Promise<Record<string, string>> {
  await t.database.db.insert(operators).values({
    username: 'matrix-admin',
    displayName: 'Matrix admin',
    passwordHash: await hashPassword('operator-password-1'),
    role: 'administrator',
    mustChangePassword: false,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username: 'matrix-admin', password: 'operator-password-1' },
  });
  return { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
}

/** A owns one of everything; each is made through the API where a customer makes it. */
async function ownEverything(): Promise<Fixture> {
  const admin = await operator();
  const console = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `${url}?lang=en`, headers: admin, payload: payload as object });
  const hour = (h: number) => new Date(Date.parse(TEST_NOW) + h * 3_600_000).toISOString();

  const form = multipart({ purpose: 'support' }, { name: 'a.png', type: 'image/png', bytes: pngBytes(4, 4) });
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/uploads?lang=en',
    headers: { ...form.headers, token: a.token },
    payload: form.payload,
  });
  const uploadId = data<{ id: string }>(uploaded, 'upload').id;

  // Written directly: adding a bank account goes through its own checks and step-up (modules/banking tests).
  const [account] = await t.database.db
    .insert(bankAccounts)
    .values({
      userId: a.userId,
      holderName: 'ヤマダ タロウ',
      accountNumber: '7654321',
      bankCode: '0001',
      bankName: 'みずほ銀行',
      branchName: '東京営業部',
      branchNumber: '001',
      status: 'approved',
    })
    .returning({ id: bankAccounts.id });
  if (!account) throw new Error('no bank account');

  data(
    await send('POST', '/api/deposits', a.token, { amount: yen(100_000), transfer_date: '2026-11-24' }),
    'deposit notice',
  );
  const order = data<{ order_no: string }>(
    await send('POST', '/api/trade/placeOrder', a.token, {
      code: '7203',
      direction: 'long',
      price_type: 'limit',
      price: yen(2_900),
      quantity: 100,
      leverage: 1,
    }),
    'limit order',
  );
  data(
    await send('POST', '/api/trade/placeOrder', a.token, {
      code: '7203',
      direction: 'long',
      price_type: 'market',
      quantity: 100,
      leverage: 1,
      margin_type: 'standard',
    }),
    'margin order',
  );
  const positions = data<{ id: number; margin_type: string | null }[]>(
    await send('GET', '/api/trade/positions?status=holding', a.token),
    'positions',
  );
  const position = positions.find((p) => p.margin_type === 'standard');
  if (!position) throw new Error(`no margin position: ${JSON.stringify(positions)}`);

  const product = data<{ id: number }>(
    await console('/api/console/products', {
      issuer: 'Kabuto Asset Management',
      name: 'Matrix basket',
      strategy: 'Toyota only.',
      risk_disclosure: 'The value moves with the market; you may lose money.',
      constituents: [{ code: '7203', weight_bp: 10_000 }],
      fund_cap: yen(10_000_000),
      deadline: '2026-12-31',
      min_investment: yen(100),
      management_rate_ppm: 3650,
    }),
    'product',
  );
  const record = data<{ id: number }>(
    await send('POST', `/api/products/${product.id}/buy`, a.token, {
      amount: '10000',
      acknowledge_risk: true,
    }),
    'product purchase',
  );

  const offering = data<{ id: number }>(
    await console('/api/console/ipo/offerings', {
      kind: 'ipo',
      code: '998A',
      name: 'Matrix Robotics',
      issuer: 'Matrix Robotics K.K.',
      market: 'TSE Growth',
      price_low: yen(1_000),
      price_high: yen(1_200),
      offering_units: 2,
      cap_units: 3,
      window_open: hour(-1),
      window_close: hour(24),
      draw_at: hour(48),
      purchase_deadline: hour(96),
      listing_at: hour(144),
    }),
    'offering',
  );
  const application = data<{ id: number }>(
    await send('POST', `/api/ipo/offerings/${offering.id}/applications`, a.token, { units: 1 }),
    'IPO application',
  );

  data(
    await console('/api/console/loans/products', {
      name: 'Matrix card loan',
      rate_bp: 1800,
      late_rate_bp: 2000,
      term_days: 30,
      min_yen: 10_000,
      max_yen: 999_999,
    }),
    'loan product',
  );
  const loan = data<{ id: number }>(
    await send('POST', '/api/loans', a.token, {
      amount: yen(100_000),
      full_name: '山田 太郎',
      id_number: 'AB1234567',
      address: '東京都千代田区丸の内1-1-1',
      phone: '090-1234-5678',
      email: 'taro@example.jp',
      annual_income_yen: 6_000_000,
      other_borrowing_yen: 0,
      agree: true,
    }),
    'loan application',
  );

  data(
    await send('POST', '/api/support/messages', a.token, { text: SUPPORT_TEXT, upload_id: uploadId }),
    'support',
  );
  const messages = data<{ items: { id: number }[] }>(await send('GET', '/api/messages', a.token), 'messages');
  const message = messages.items[0];
  if (!message) throw new Error('A has no message');

  const authenticator = new SoftAuthenticator(ORIGIN, RP_ID);
  const options = data<{ options: { challenge: string } }>(
    await send('POST', '/api/passkeys/options', a.token, {}),
    'passkey options',
  ).options;
  const passkey = data<{ id: number }>(
    await send('POST', '/api/passkeys', a.token, { credential: authenticator.register(options), name: 'A' }),
    'passkey',
  );
  const sessions = data<{ items: { id: number; current: boolean }[] }>(
    await send('GET', '/api/sessions', a.token),
    'sessions',
  );
  const session = sessions.items.find((s) => s.current) ?? sessions.items[0];
  if (!session) throw new Error('A has no session');

  return {
    passkeyId: passkey.id,
    sessionId: session.id,
    userId: a.userId,
    uploadId,
    bankAccountId: account.id,
    orderNo: order.order_no,
    positionId: position.id,
    productRecordId: record.id,
    applicationId: application.id,
    loanId: loan.id,
    messageId: message.id,
  };
}

/** Every property name anywhere in a JSON schema. */
function propertyNames(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap(propertyNames);
  const node = schema as Record<string, unknown>;
  const own =
    node['properties'] && typeof node['properties'] === 'object' ? Object.keys(node['properties']) : [];
  return [...own, ...Object.values(node).flatMap(propertyNames)];
}

/** "METHOD path name" for every identifier a customer route takes. */
function identifiers(): string[] {
  return Object.entries(doc.paths)
    .filter(([path]) => !path.startsWith('/api/console/'))
    .flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, op]) => {
        const names = [
          ...(op.parameters ?? [])
            .filter((p) => p.in === 'path' || IDENTIFIER.test(p.name))
            .map((p) => p.name),
          ...propertyNames(op.requestBody).filter((n) => IDENTIFIER.test(n)),
        ];
        return [...new Set(names)].map((name) => `${method.toUpperCase()} ${path} ${name}`);
      }),
    )
    .sort();
}

/** A's own view of everything A owns, to compare before and after B's attempts. */
async function viewOf(token: string): Promise<string> {
  const reads = [
    '/api/trade/orders',
    '/api/trade/positions?status=holding',
    '/api/bank-accounts',
    '/api/deposits',
    '/api/withdrawals',
    '/api/products/records',
    '/api/ipo/applications',
    '/api/loans',
    '/api/messages',
    '/api/support',
    '/api/ledger/entries',
    '/api/passkeys',
  ];
  const answers: unknown[] = [];
  for (const url of reads) answers.push({ url, data: data(await send('GET', url, token), url) });
  return JSON.stringify(answers);
}

beforeAll(async () => {
  t = await createTestApp({ FEE_BP: '0', WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
  market?.set('7203', 3000, { prevCloseYen: 3000 });
  a = await registerAndLogin(t);
  b = await registerAndLogin(t);
  for (const u of [a, b]) await fundDemoCash(t.database.db, u.userId, yen(5_000_000), t.clock.now());
  fixture = await ownEverything();
  MISSING.orderNo = fixture.orderNo.replace(/\d$/, (d) => String((Number(d) + 5) % 10));
  const bankBase = BASE['/api/bank-accounts'];
  if (bankBase) bankBase['login_password'] = b.password;
  data(
    await send('POST', '/api/user/setTxnPassword', b.token, {
      login_password: b.password,
      new_password: '123456',
      confirm_password: '123456',
    }),
    'B sets a transaction password',
  );
  doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
}, 120_000);
afterAll(() => t.close());

describe('the authorization matrix between two customers', () => {
  it('classifies every identifier a customer route takes as owned or public', () => {
    const found = identifiers();
    const unclassified = found.filter((id) => !(id in OWNED) && !(id in PUBLIC));
    expect(unclassified, 'add each to OWNED (and the fixture) or PUBLIC, with the reason').toEqual([]);
    const stale = [...Object.keys(OWNED), ...Object.keys(PUBLIC)].filter((id) => !found.includes(id));
    expect(stale, 'routes or fields that no longer exist').toEqual([]);
  });

  it('answers B with A’s identifier exactly as with one that does not exist, and A sees no change', async () => {
    const before = await viewOf(a.token);
    const differences: string[] = [];
    for (const [id, key] of Object.entries(OWNED)) {
      const [method = '', path = '', name = ''] = id.split(' ');
      const attempt = async (value: string | number) => {
        const isPath = path.includes(`{${name}}`);
        const url = isPath
          ? path.replace(`{${name}}`, encodeURIComponent(String(value)))
          : method === 'GET'
            ? `${path}?${name}=${encodeURIComponent(String(value))}`
            : path;
        const payload =
          method === 'GET'
            ? undefined
            : {
                ...(BASE[id] ?? BASE[path] ?? {}),
                ...(isPath ? {} : { [name]: name === 'ids' ? [value] : value }),
              };
        const res = await send(method, url, b.token, payload);
        return { status: res.statusCode, code: body(res).code, text: res.body.slice(0, 160) };
      };
      const theirs = await attempt(fixture[key]);
      const nobodys = await attempt(MISSING[key]);
      if (theirs.status >= 500 || theirs.status !== nobodys.status || theirs.code !== nobodys.code) {
        differences.push(`${id}: A's → ${theirs.text}; nobody's → ${nobodys.text}`);
      } else if (theirs.code === 1 && !IGNORED.has(id)) {
        differences.push(`${id}: accepted → ${theirs.text}`);
      }
    }
    expect(differences).toEqual([]);
    expect(await viewOf(a.token)).toBe(before);
  });

  it('shows B nothing of A’s on any customer read', async () => {
    const markers = [
      a.phone,
      fixture.uploadId,
      fixture.orderNo,
      SUPPORT_TEXT,
      'AB1234567',
      '7654321',
      'Matrix basket', // A's product record would name it; the product itself is public, so only records count
    ];
    const reads = Object.entries(doc.paths).flatMap(([path, methods]) =>
      'get' in methods &&
      !path.startsWith('/api/console/') &&
      !path.includes('{') &&
      !(methods['get'].parameters ?? []).some((p) => 'required' in p && p.required)
        ? [path]
        : [],
    );
    expect(reads.length).toBeGreaterThan(30);
    const leaks: string[] = [];
    for (const path of reads) {
      if (path === '/api/products' || path === '/api/openapi.json') continue; // the published catalogue
      const res = await send('GET', path, b.token);
      for (const marker of markers) if (res.body.includes(marker)) leaks.push(`${path} shows ${marker}`);
    }
    expect(leaks).toEqual([]);
  });
});
