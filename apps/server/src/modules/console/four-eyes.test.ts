import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAuditEntry, TSettingProposal, TSettings } from '@kabuto/contract';
import { auditLog, messages, operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { DEPOSIT_ACCOUNT_CHANGED } from './admin.js';
import { PROPOSAL_EXPIRY_HOURS } from './four-eyes.js';

/**
 * Four-eyes on the settings that could defeat it (issue 22, ADR 0034): the withdrawals' second-approval
 * threshold and the firm's deposit account change only when a second administrator confirms; the rest of
 * the settings take effect at once. A deposit account change is told to every customer when it takes effect
 * (ADR 0030), since a changed account is what a fraudster or a rogue administrator would set.
 */
let t: TestApp;
type Headers = Record<string, string>;
let alice: { id: number; headers: Headers };
let bob: { id: number; headers: Headers };
let carol: { id: number; headers: Headers };
let reviewer: { id: number; headers: Headers };
let counter = 0;

async function operator(role: 'reviewer' | 'administrator') {
  counter += 1;
  const username = `foureyes${counter}`;
  const [row] = await t.database.db
    .insert(operators)
    .values({
      username,
      displayName: `Four-eyes ${counter}`,
      passwordHash: await hashPassword('operator-password-1'),
      role,
      mustChangePassword: false,
    })
    .returning();
  if (!row) throw new Error('no operator');
  const signedIn = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username, password: 'operator-password-1' },
  });
  return { id: row.id, headers: { authorization: `Bearer ${body<{ token: string }>(signedIn).data.token}` } };
}

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob, carol, reviewer] = [
    await operator('administrator'),
    await operator('administrator'),
    await operator('administrator'),
    await operator('reviewer'),
  ];
});
afterAll(() => t.close());

const get = (url: string, headers: Headers) =>
  t.app.inject({ url: `${url}${url.includes('?') ? '&' : '?'}lang=en`, headers });
const settingsNow = async () => body<TSettings>(await get('/api/console/settings', reviewer.headers)).data;
const proposals = async (headers: Headers = reviewer.headers) =>
  body<{ items: TSettingProposal[] }>(await get('/api/console/settings/proposals', headers)).data.items;
const put = (key: 'withdrawal' | 'deposit', headers: Headers, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/api/console/settings/${key}?lang=en`, headers, payload });
const decide = (id: number, verb: 'confirm' | 'cancel', headers: Headers) =>
  t.app.inject({
    method: 'POST',
    url: `/api/console/settings/proposals/${String(id)}/${verb}?lang=en`,
    headers,
    payload: {},
  });
const auditOf = async (action: string) => {
  const res = await get(`/api/console/audit?action=${action}`, alice.headers);
  expect(res.statusCode, res.body).toBe(200);
  return body<{ items: TAuditEntry[] }>(res).data.items;
};
const noticesOf = async (userId: number) =>
  (await t.database.db.select().from(messages).where(eq(messages.userId, userId))).filter(
    (m) => m.kind === DEPOSIT_ACCOUNT_CHANGED,
  );

describe('the second-approval threshold', () => {
  it('is proposed by one administrator and takes effect only when another confirms', async () => {
    const before = await settingsNow();
    const threshold = before.withdrawal.second_approval_over_yen;
    const saved = await put('withdrawal', alice.headers, {
      ...before.withdrawal,
      min_yen: before.withdrawal.min_yen + 1000,
      second_approval_over_yen: 99_000_000,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // the minimum took effect at once; the threshold did not
    const answered = body<TSettings>(saved).data.withdrawal;
    expect(answered.min_yen).toBe(before.withdrawal.min_yen + 1000);
    expect(answered.second_approval_over_yen).toBe(threshold);
    expect((await settingsNow()).withdrawal.second_approval_over_yen).toBe(threshold);

    const [proposal, ...others] = await proposals();
    expect(others).toEqual([]);
    expect(proposal).toMatchObject({
      key: 'withdrawal',
      proposed: { second_approval_over_yen: 99_000_000 },
      proposed_by: { id: alice.id, display_name: expect.stringMatching(/^Four-eyes/) as unknown },
    });
    if (!proposal) throw new Error('no proposal');

    // the proposer cannot confirm, a reviewer cannot decide, a second proposal waits for the first
    const own = await decide(proposal.id, 'confirm', alice.headers);
    expect(own.statusCode, own.body).toBe(403);
    expect(body(own)).toMatchObject({ code: 1842 });
    expect((await decide(proposal.id, 'confirm', reviewer.headers)).statusCode).toBe(403);
    const again = await put('withdrawal', bob.headers, { ...answered, second_approval_over_yen: 5 });
    expect(again.statusCode).toBe(409);
    expect(body(again)).toMatchObject({ code: 1840 });
    expect((await settingsNow()).withdrawal.second_approval_over_yen).toBe(threshold);

    const confirmed = await decide(proposal.id, 'confirm', bob.headers);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(body<TSettings>(confirmed).data.withdrawal).toEqual({
      ...answered,
      second_approval_over_yen: 99_000_000,
    });
    expect((await settingsNow()).withdrawal.second_approval_over_yen).toBe(99_000_000);
    expect(await proposals()).toEqual([]);
    // confirmed once: a second confirmation finds nothing
    expect(body(await decide(proposal.id, 'confirm', carol.headers))).toMatchObject({ code: 1841 });

    const [proposed] = await auditOf('settings.propose');
    expect(proposed).toMatchObject({
      id: proposal.id,
      operator_id: alice.id,
      target_id: 'withdrawal',
      before: { second_approval_over_yen: threshold },
      after: { second_approval_over_yen: 99_000_000 },
    });
    const [confirmation] = await auditOf('settings.confirm');
    expect(confirmation).toMatchObject({ operator_id: bob.id, target_id: 'withdrawal' });
    expect(confirmation?.after).toMatchObject({ second_approval_over_yen: 99_000_000 });
  });

  it('is cancelled by either administrator, and then nothing changes', async () => {
    const before = await settingsNow();
    for (const canceller of [alice, bob]) {
      const saved = await put('withdrawal', alice.headers, {
        ...before.withdrawal,
        second_approval_over_yen: 1,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const [proposal] = await proposals();
      if (!proposal) throw new Error('no proposal');
      const cancelled = await decide(proposal.id, 'cancel', canceller.headers);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(body(cancelled).data).toEqual({ items: [] });
      expect(body(await decide(proposal.id, 'confirm', carol.headers))).toMatchObject({ code: 1841 });
    }
    expect(await settingsNow()).toEqual(before);
    const cancels = await auditOf('settings.cancel');
    expect(cancels.map((c) => c.operator_id).slice(0, 2)).toEqual([bob.id, alice.id]);
  });

  it('refuses unknown and malformed proposal ids in the envelope', async () => {
    expect(body(await decide(2_000_000_000, 'confirm', bob.headers))).toMatchObject({ code: 1841 });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/console/settings/proposals/abc/cancel?lang=en',
      headers: bob.headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('a deposit account change', () => {
  it('is a proposal; when confirmed it is told to every customer, with the new bank and branch', async () => {
    const [a, b] = [await registerAndLogin(t), await registerAndLogin(t)];
    const current = (await settingsNow()).deposit;
    const saved = await put('deposit', alice.headers, {
      ...current,
      bank_name: 'みずほ銀行',
      branch_name: '兜町支店',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(body<TSettings>(saved).data.deposit).toEqual(current);
    expect(await noticesOf(a.userId)).toHaveLength(0);

    const [proposal] = await proposals();
    expect(proposal).toMatchObject({
      key: 'deposit',
      proposed: { bank_name: 'みずほ銀行', branch_name: '兜町支店' },
    });
    if (!proposal) throw new Error('no proposal');
    const confirmed = await decide(proposal.id, 'confirm', carol.headers);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(body<TSettings>(confirmed).data.deposit).toMatchObject({
      bank_name: 'みずほ銀行',
      branch_name: '兜町支店',
    });

    for (const user of [a, b]) {
      const notices = await noticesOf(user.userId);
      expect(notices).toHaveLength(1);
      expect(JSON.parse(notices[0]?.params ?? '{}')).toEqual({
        bank_name: 'みずほ銀行',
        branch_name: '兜町支店',
      });
    }
    const listed = await t.app.inject({ url: '/api/messages?lang=en', headers: { token: a.token } });
    expect(listed.body).toContain(DEPOSIT_ACCOUNT_CHANGED);
  });

  it('lets the deposit URL change at once, told to no one and proposing nothing', async () => {
    const user = await registerAndLogin(t);
    const current = (await settingsNow()).deposit;
    for (let i = 0; i < 2; i += 1) {
      const saved = await put('deposit', alice.headers, {
        ...current,
        url: 'https://pay.example.jp/deposit',
      });
      expect(body<TSettings>(saved).data.deposit.url).toBe('https://pay.example.jp/deposit');
    }
    expect(await proposals()).toEqual([]);
    expect(await noticesOf(user.userId)).toHaveLength(0);
  });
});

/**
 * A proposal waits PROPOSAL_EXPIRY_HOURS at most (ADR 0049), on the test's fixed clock: until the last
 * millisecond it can be confirmed; from then on it is listed as expired, refused (1843), and a new proposal
 * of the same part replaces it. Sessions end while the clock moves a day, so the operators sign in again.
 */
describe('a proposal that waits too long', () => {
  const HOUR = 60 * 60_000;
  const signIn = async (username: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/console/login',
      payload: { username, password: 'operator-password-1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
  };
  const admins = async () => {
    const [p, s] = [await operator('administrator'), await operator('administrator')];
    const names = await t.database.db.select().from(operators);
    const nameOf = (id: number) => names.find((n) => n.id === id)?.username ?? '';
    return { proposer: { ...p, username: nameOf(p.id) }, second: { ...s, username: nameOf(s.id) } };
  };
  const proposeThreshold = async (headers: Headers, yen: number) => {
    const current = body<TSettings>(await get('/api/console/settings', headers)).data;
    const saved = await put('withdrawal', headers, { ...current.withdrawal, second_approval_over_yen: yen });
    expect(saved.statusCode, saved.body).toBe(200);
    const listed = body<{ items: TSettingProposal[] }>(await get('/api/console/settings/proposals', headers))
      .data.items;
    const proposal = listed.find((p) => p.key === 'withdrawal');
    if (!proposal) throw new Error('no proposal');
    return proposal;
  };

  it('can be confirmed until PROPOSAL_EXPIRY_HOURS after it was made, not from then on', async () => {
    expect(PROPOSAL_EXPIRY_HOURS).toBe(24);
    const { proposer, second } = await admins();
    const early = await proposeThreshold(proposer.headers, 7_000_000);
    const madeAt = t.clock.now();
    expect(early).toMatchObject({
      proposed_at: madeAt.toISOString(),
      expires_at: new Date(madeAt.getTime() + 24 * HOUR).toISOString(),
      expired: false,
    });
    t.clock.advance(24 * HOUR - 1);
    const secondHeaders = await signIn(second.username);
    expect((await proposals(secondHeaders))[0]).toMatchObject({ id: early.id, expired: false });
    const inTime = await decide(early.id, 'confirm', secondHeaders);
    expect(inTime.statusCode, inTime.body).toBe(200);
    expect(body<TSettings>(inTime).data.withdrawal.second_approval_over_yen).toBe(7_000_000);

    const proposerHeaders = await signIn(proposer.username);
    const late = await proposeThreshold(proposerHeaders, 8_000_000);
    t.clock.advance(24 * HOUR);
    const [proposerAgain, secondAgain] = [await signIn(proposer.username), await signIn(second.username)];
    const [listed] = await proposals(secondAgain);
    expect(listed).toMatchObject({ id: late.id, expired: true });
    const refused = await decide(late.id, 'confirm', secondAgain);
    expect(refused.statusCode).toBe(409);
    expect(body(refused)).toMatchObject({
      code: 1843,
      msg: 'This proposal has expired and can no longer be confirmed. The change can be proposed again',
    });
    const settings = body<TSettings>(await get('/api/console/settings', secondAgain)).data;
    expect(settings.withdrawal.second_approval_over_yen).toBe(7_000_000);

    // the proposer proposes again: the expired proposal makes way, audited, and the new one can be confirmed
    const renewed = await proposeThreshold(proposerAgain, 8_000_000);
    expect(renewed.id).not.toBe(late.id);
    expect(renewed.expired).toBe(false);
    expect(await proposals(secondAgain)).toHaveLength(1);
    const expiredEntries = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'settings.expire'));
    expect(expiredEntries.at(-1)).toMatchObject({
      operatorId: proposer.id,
      targetId: 'withdrawal',
      reason: expect.stringContaining(
        `proposal ${String(late.id)} by operator ${String(proposer.id)} expired`,
      ) as unknown,
    });
    const confirmed = await decide(renewed.id, 'confirm', secondAgain);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(body<TSettings>(confirmed).data.withdrawal.second_approval_over_yen).toBe(8_000_000);
  });

  it('can still be withdrawn once expired, and a pending one still blocks a new proposal', async () => {
    const { proposer, second } = await admins();
    const waiting = await proposeThreshold(proposer.headers, 9_000_000);
    const blocked = await put('withdrawal', second.headers, {
      ...body<TSettings>(await get('/api/console/settings', second.headers)).data.withdrawal,
      second_approval_over_yen: 9_500_000,
    });
    expect(body(blocked)).toMatchObject({ code: 1840 });
    t.clock.advance(25 * HOUR);
    const headers = await signIn(second.username);
    const cancelled = await decide(waiting.id, 'cancel', headers);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(body(cancelled).data).toEqual({ items: [] });
  });
});

describe('who may see proposals', () => {
  it('answers 401 without a console session, also to a customer', async () => {
    const user = await registerAndLogin(t);
    const attempts: Headers[] = [{}, { token: user.token }, { authorization: `Bearer ${user.token}` }];
    for (const headers of attempts) {
      expect((await get('/api/console/settings/proposals', headers)).statusCode).toBe(401);
      expect((await decide(1, 'confirm', headers)).statusCode).toBe(401);
    }
  });
});
