import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { SUPPORT_RATE_LIMIT } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function staff() {
  const username = `cs${Math.random().toString(36).slice(2, 8)}`;
  await t.database.db.insert(operators).values({
    username,
    displayName: username,
    passwordHash: await hashPassword('operator-password-1'),
    role: 'reviewer',
    mustChangePassword: false,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username, password: 'operator-password-1' },
  });
  return { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
}

type Conversation = {
  id: number | null;
  state: string;
  unread: number;
  messages: { from: string; text: string }[];
};

describe('the support conversation (ADR 0029)', () => {
  it('user writes, staff answer from the queue, unread counts on both sides, states move', async () => {
    const user = await registerAndLogin(t);
    const op = await staff();
    const headers = { token: user.token };
    expect(body<Conversation>(await t.app.inject({ url: '/api/support', headers })).data).toMatchObject({
      id: null,
      messages: [],
    });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      headers,
      payload: { text: '出金はいつ反映されますか' },
    });
    expect(sent.statusCode, sent.body).toBe(200);

    const queue = body<{
      items: { id: number; unread: number; state: string; user_id: number }[];
      unread: number;
    }>(await t.app.inject({ url: '/api/console/support', headers: op })).data;
    const item = queue.items.find((i) => i.user_id === user.userId);
    if (!item) throw new Error('the conversation is not in the queue');
    expect(item).toMatchObject({ unread: 1, state: 'open' });
    const detail = await t.app.inject({ url: `/api/console/support/${item.id}`, headers: op });
    expect(body<{ messages: unknown[] }>(detail).data.messages).toHaveLength(1);
    // opened: seen by staff
    const seen = body<{ items: { id: number; unread: number }[] }>(
      await t.app.inject({ url: '/api/console/support', headers: op }),
    ).data;
    expect(seen.items.find((i) => i.id === item.id)?.unread).toBe(0);

    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/console/support/${item.id}/reply`,
      headers: op,
      payload: { text: '通常、翌営業日に反映されます。当社がパスワードをお尋ねすることはありません。' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const mine = body<Conversation>(await t.app.inject({ url: '/api/support', headers })).data;
    expect(mine).toMatchObject({ state: 'waiting_user', unread: 1 });
    expect(mine.messages.map((m) => m.from)).toEqual(['user', 'staff']);
    await t.app.inject({ method: 'POST', url: '/api/support/read', headers, payload: {} });
    expect(body<Conversation>(await t.app.inject({ url: '/api/support', headers })).data.unread).toBe(0);
    // the reply is a stored message for the user too
    const msgs = body<{ items: { kind: string }[] }>(
      await t.app.inject({ url: '/api/messages', headers }),
    ).data;
    expect(msgs.items.map((m) => m.kind)).toContain('support.reply');

    await t.app.inject({
      method: 'POST',
      url: `/api/console/support/${item.id}/state`,
      headers: op,
      payload: { state: 'resolved' },
    });
    expect(body<Conversation>(await t.app.inject({ url: '/api/support', headers })).data.state).toBe(
      'resolved',
    );
    // writing again opens it again
    await t.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      headers,
      payload: { text: 'もう一つ質問です' },
    });
    expect(body<Conversation>(await t.app.inject({ url: '/api/support', headers })).data.state).toBe('open');

    // assigning to an operator who does not exist is a 404 in the envelope, not a database error
    const nobody = await t.app.inject({
      method: 'POST',
      url: `/api/console/support/${item.id}/assign`,
      headers: op,
      payload: { assignee_id: 2_000_000_000 },
    });
    expect(nobody.statusCode, nobody.body).toBe(404);
    expect(body(nobody)).toMatchObject({ code: 404 });
    const none = await t.app.inject({
      method: 'POST',
      url: `/api/console/support/${item.id}/assign`,
      headers: op,
      payload: { assignee_id: null },
    });
    expect(none.statusCode, none.body).toBe(200);
  });

  it('blocks a staff message with an account number, says why, sends nothing and audits the attempt', async () => {
    const user = await registerAndLogin(t);
    const op = await staff();
    await t.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      headers: { token: user.token },
      payload: { text: 'help' },
    });
    const queue = body<{ items: { id: number; user_id: number }[] }>(
      await t.app.inject({ url: '/api/console/support', headers: op }),
    ).data;
    const id = queue.items.find((i) => i.user_id === user.userId)?.id;
    if (id === undefined) throw new Error('the conversation is not in the queue');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/console/support/${id}/reply?lang=jp`,
      headers: op,
      payload: { text: 'IPO当選のため 普通 1234567 へお振込みください' },
    });
    expect(res.statusCode).toBe(422);
    expect(body(res)).toMatchObject({ code: 1663 });
    expect(body(res).msg).toContain('口座番号');
    const mine = body<Conversation>(
      await t.app.inject({ url: '/api/support', headers: { token: user.token } }),
    ).data;
    expect(mine.messages.map((m) => m.from)).toEqual(['user']);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'support.blocked'));
    expect(audits.some((a) => a.targetId === String(id) && a.reason === 'SUPPORT_BLOCKED_ACCOUNT')).toBe(
      true,
    );
  });

  it('limits size and rate, refuses empty messages and someone else’s image, and needs a session', async () => {
    const user = await registerAndLogin(t);
    const other = await registerAndLogin(t);
    const headers = { token: user.token };
    expect((await t.app.inject({ url: '/api/support' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/support/messages', payload: { text: 'x' } }))
        .statusCode,
    ).toBe(401);
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/support/messages?lang=en',
      headers,
      payload: { text: 'x'.repeat(2001) },
    });
    expect(big.statusCode).toBe(400);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/support/messages?lang=en',
      headers,
      payload: { text: '  ' },
    });
    expect(empty.body).toContain('Write a message or attach an image');
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      headers,
      payload: { text: 'see', upload_id: 'a'.repeat(64) },
    });
    expect(body(foreign).code).toBe(1305);
    for (let i = 0; i < SUPPORT_RATE_LIMIT; i++) {
      const ok = await t.app.inject({
        method: 'POST',
        url: '/api/support/messages',
        headers,
        payload: { text: `m${i}` },
      });
      expect(body(ok).code).toBe(1);
    }
    const fast = await t.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      headers,
      payload: { text: 'one more' },
    });
    expect(body(fast).code).toBe(1662);
    t.clock.advance(61_000);
    expect(
      body(
        await t.app.inject({
          method: 'POST',
          url: '/api/support/messages',
          headers,
          payload: { text: 'later' },
        }),
      ).code,
    ).toBe(1);
    // one user never sees another's conversation
    const theirs = body<Conversation>(
      await t.app.inject({ url: '/api/support', headers: { token: other.token } }),
    ).data;
    expect(theirs.messages).toEqual([]);
  });
});
