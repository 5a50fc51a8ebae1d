import { expect, type APIRequestContext } from '@playwright/test';
import { pngBytes } from '../../apps/server/src/lib/images.js';

/**
 * The operator side through the console API, for specs whose subject is elsewhere (trading, PTS...) but
 * whose users must first pass real-name verification. The console's own screens are driven in
 * console.spec.ts and funds.spec.ts.
 */
export const ADMIN_USERNAME = 'admin';
export const ADMIN_INITIAL_PASSWORD = process.env['CONSOLE_ADMIN_PASSWORD'] ?? 'e2e-admin-once-2026';
export const ADMIN_PASSWORD = 'e2e-admin-changed-2026';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function json<T>(response: { json(): Promise<unknown> }): Promise<Envelope<T>> {
  return (await response.json()) as Envelope<T>;
}

/** Signs in as the seeded administrator, changing the one-time password first if no spec has yet. */
export async function adminBearer(request: APIRequestContext): Promise<{ authorization: string }> {
  const login = async (password: string) =>
    json<{ token: string; operator: { must_change_password: boolean } }>(
      await request.post('/api/console/login', { data: { username: ADMIN_USERNAME, password } }),
    );
  let answer = await login(ADMIN_PASSWORD);
  if (answer.code !== 1) {
    answer = await login(ADMIN_INITIAL_PASSWORD);
    expect(answer.code, answer.msg).toBe(1);
  }
  const authorization = `Bearer ${answer.data.token}`;
  if (answer.data.operator.must_change_password) {
    const changed = await json(
      await request.post('/api/console/password', {
        headers: { authorization },
        data: { old_password: ADMIN_INITIAL_PASSWORD, new_password: ADMIN_PASSWORD },
      }),
    );
    expect(changed.code, changed.msg).toBe(1);
  }
  return { authorization };
}

/** The second administrator four-eyes needs (ADR 0034), made through the console API by the first. */
export const SECOND_ADMIN_USERNAME = 'admin2';
export const SECOND_ADMIN_PASSWORD = 'e2e-admin2-changed-2026';

/**
 * Signs in as the second administrator, creating it (one-time password, then its own) the first time: it
 * confirms what the seeded administrator proposes, since nobody confirms their own change.
 */
export async function secondAdminBearer(request: APIRequestContext): Promise<{ authorization: string }> {
  const login = async (password: string) =>
    json<{ token: string }>(
      await request.post('/api/console/login', { data: { username: SECOND_ADMIN_USERNAME, password } }),
    );
  const known = await login(SECOND_ADMIN_PASSWORD);
  if (known.code === 1) return { authorization: `Bearer ${known.data.token}` };
  const created = await json<{ one_time_password: string }>(
    await request.post('/api/console/operators', {
      headers: await adminBearer(request),
      data: {
        username: SECOND_ADMIN_USERNAME,
        display_name: 'E2E second administrator',
        role: 'administrator',
      },
    }),
  );
  expect(created.code, created.msg).toBe(1);
  const first = await login(created.data.one_time_password);
  expect(first.code, first.msg).toBe(1);
  const changed = await json(
    await request.post('/api/console/password', {
      headers: { authorization: `Bearer ${first.data.token}` },
      data: { old_password: created.data.one_time_password, new_password: SECOND_ADMIN_PASSWORD },
    }),
  );
  expect(changed.code, changed.msg).toBe(1);
  const again = await login(SECOND_ADMIN_PASSWORD);
  expect(again.code, again.msg).toBe(1);
  return { authorization: `Bearer ${again.data.token}` };
}

/**
 * Confirms, as the second administrator, every pending four-eyes proposal of a settings part (ADR 0034):
 * the threshold or the deposit account the seeded administrator just saved.
 */
export async function confirmProposals(request: APIRequestContext, key: string): Promise<void> {
  const second = await secondAdminBearer(request);
  const pending = await json<{ items: { id: number; key: string }[] }>(
    await request.get('/api/console/settings/proposals', { headers: second }),
  );
  expect(pending.code, pending.msg).toBe(1);
  for (const proposal of pending.data.items.filter((p) => p.key === key)) {
    const confirmed = await json(
      await request.post(`/api/console/settings/proposals/${String(proposal.id)}/confirm`, {
        headers: second,
        data: {},
      }),
    );
    expect(confirmed.code, confirmed.msg).toBe(1);
  }
}

/**
 * A complete account application (issue 23) as POST /api/identity takes it: answers that pass every
 * default suitability rule, the published sample My Number, and the given photos.
 */
export function applicationData(front: string, back: string, fullName = '山田 太郎') {
  return {
    full_name: fullName,
    full_name_kana: 'ヤマダ タロウ',
    birth_date: '1985-04-01',
    profile: {
      postal_code: '100-0005',
      prefecture: '13',
      city: '千代田区',
      address_line: '丸の内1-1-1',
      building: '',
      occupation: 'company_employee',
      employer_type: 'unlisted_company',
      annual_income: '5m_10m',
      financial_assets: '3m_5m',
      experience: { stocks: '3_5', margin: '1_3', funds: '1_3', bonds: 'none', fx: 'none' },
      purpose: 'growth',
      fund_source: 'salary',
      pep: false,
      tax_residence: 'japan_only',
      tax_country: '',
    },
    my_number: '123456789018',
    document_type: 'my_number_card',
    front_upload_id: front,
    back_upload_id: back,
    specific_account: 'withholding',
    open_nisa: true,
  };
}

/**
 * Files an account application for the user through the API and has the administrator approve it
 * through the console API: the same path a user and a reviewer take, without their screens.
 */
export async function verifyUser(
  request: APIRequestContext,
  phone: string,
  password: string,
  fullName = '山田 太郎',
): Promise<void> {
  const login = await json<{ token: string; user_id: number }>(
    await request.post('/api/auth/login', { data: { account: phone, password, agree: true } }),
  );
  expect(login.code, login.msg).toBe(1);
  const token = login.data.token;
  const upload = async (purpose: string) => {
    const res = await json<{ id: string }>(
      await request.post('/api/uploads', {
        headers: { token },
        multipart: {
          purpose,
          file: { name: `${purpose}.png`, mimeType: 'image/png', buffer: pngBytes(8, 6) },
        },
      }),
    );
    expect(res.code, res.msg).toBe(1);
    return res.data.id;
  };
  const submitted = await json(
    await request.post('/api/identity', {
      headers: { token },
      data: applicationData(await upload('identity_front'), await upload('identity_back'), fullName),
    }),
  );
  expect(submitted.code, submitted.msg).toBe(1);
  const admin = await adminBearer(request);
  const queue = await json<{ items: { id: number }[] }>(
    await request.get(`/api/console/identity?status=pending&user_id=${login.data.user_id}`, {
      headers: admin,
    }),
  );
  const id = queue.data.items[0]?.id;
  expect(id, 'the pending identity check').toBeDefined();
  const approved = await json(
    await request.post(`/api/console/identity/${id}/approve`, { headers: admin, data: {} }),
  );
  expect(approved.code, approved.msg).toBe(1);
}
