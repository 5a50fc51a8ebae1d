import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, operators } from '../../db/schema.js';
import { jpegBytes, multipart } from '../../lib/images.js';
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

  it('images both ways: the user attaches one, staff see it; staff attach one, only that user and operators read it', async () => {
    const user = await registerAndLogin(t);
    const other = await registerAndLogin(t);
    const op = await staff();
    const headers = { token: user.token };
    const upload = async (
      h: Record<string, string>,
      url: string,
      fields: Record<string, string>,
      bytes: Buffer,
    ) => {
      const form = multipart(fields, { name: 'photo.jpg', type: 'image/jpeg', bytes });
      return t.app.inject({ method: 'POST', url, headers: { ...h, ...form.headers }, payload: form.payload });
    };
    // the user's image goes through the upload checks (re-encoded: the EXIF text is gone)
    const mine = body<{ id: string }>(
      await upload(headers, '/api/uploads', { purpose: 'support' }, jpegBytes({ exif: 'GPS 35.68,139.76' })),
    ).data;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      headers,
      payload: { upload_id: mine.id },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const item = body<{ items: { id: number; user_id: number }[] }>(
      await t.app.inject({ url: '/api/console/support', headers: op }),
    ).data.items.find((i) => i.user_id === user.userId);
    if (!item) throw new Error('the conversation is not in the queue');
    const detail = body<{ messages: { upload_id: string | null }[] }>(
      await t.app.inject({ url: `/api/console/support/${item.id}`, headers: op }),
    ).data;
    expect(detail.messages.at(-1)?.upload_id).toBe(mine.id);
    const seen = await t.app.inject({ url: `/api/console/uploads/${mine.id}/thumbnail`, headers: op });
    expect(seen.statusCode).toBe(200);
    expect(seen.rawPayload.includes(Buffer.from('GPS 35.68'))).toBe(false);

    // staff attach an image to the conversation and send it
    const notImage = await upload(op, `/api/console/support/${item.id}/images`, {}, Buffer.from('%PDF-1.4'));
    expect(body(notImage).code).toBe(1303);
    const noConversation = await upload(op, '/api/console/support/2000000000/images', {}, jpegBytes());
    expect(body(noConversation).code).toBe(1661);
    const staffImage = body<{ id: string }>(
      await upload(op, `/api/console/support/${item.id}/images`, {}, jpegBytes()),
    ).data;
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/console/support/${item.id}/reply`,
      headers: op,
      payload: { upload_id: staffImage.id },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const conversation = body<{ messages: { from: string; upload_id: string | null }[] }>(
      await t.app.inject({ url: '/api/support', headers }),
    ).data;
    expect(conversation.messages.at(-1)).toMatchObject({ from: 'staff', upload_id: staffImage.id });
    const audits = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.targetId, String(item.id)));
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['support.image', 'support.reply']));

    // who may read the staff image: the conversation's user and operators; another user 404, nobody 401
    expect((await t.app.inject({ url: `/api/uploads/${staffImage.id}`, headers })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ url: `/api/console/uploads/${staffImage.id}`, headers: op })).statusCode,
    ).toBe(200);
    const stranger = await t.app.inject({
      url: `/api/uploads/${staffImage.id}`,
      headers: { token: other.token },
    });
    expect(stranger.statusCode).toBe(404);
    expect(body(stranger).code).toBe(1305);
    expect((await t.app.inject({ url: `/api/uploads/${staffImage.id}` })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: `/api/uploads/${mine.id}`, headers: { token: other.token } })).statusCode,
    ).toBe(404);
    // the user's own image is not readable by another user either, and the staff image is not the user's to send
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      headers,
      payload: { upload_id: staffImage.id },
    });
    expect(body(resend).code).toBe(1305);
    // staff send only an image uploaded by an operator for this conversation
    for (const uploadId of [mine.id, 'f'.repeat(64)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/console/support/${item.id}/reply`,
        headers: op,
        payload: { upload_id: uploadId },
      });
      expect(body(res).code).toBe(1305);
    }
    const otherConversation = await t.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      headers: { token: other.token },
      payload: { text: 'hello' },
    });
    expect(otherConversation.statusCode).toBe(200);
    const otherItem = body<{ items: { id: number; user_id: number }[] }>(
      await t.app.inject({ url: '/api/console/support', headers: op }),
    ).data.items.find((i) => i.user_id === other.userId);
    const crossed = await t.app.inject({
      method: 'POST',
      url: `/api/console/support/${otherItem?.id ?? 0}/reply`,
      headers: op,
      payload: { upload_id: staffImage.id },
    });
    expect(body(crossed).code).toBe(1305);
    // an empty staff answer is refused; the console's upload needs an operator
    const empty = await t.app.inject({
      method: 'POST',
      url: `/api/console/support/${item.id}/reply?lang=en`,
      headers: op,
      payload: { text: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    const anonymous = await upload({}, `/api/console/support/${item.id}/images`, {}, jpegBytes());
    expect(anonymous.statusCode).toBe(401);
    const asUser = await upload(headers, `/api/console/support/${item.id}/images`, {}, jpegBytes());
    expect(asUser.statusCode).toBe(401);
  });
});
