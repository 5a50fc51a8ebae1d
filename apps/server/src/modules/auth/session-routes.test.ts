import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { TestSocket, isType } from '../../test/ws-client.js';
import { deviceOf, ipPrefix } from './sessions.js';

/** The user's list of sessions, and ending one of them at once over HTTP and the socket (issue 22). */
let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/ws`;
});
afterAll(() => t.close());

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

async function loginFrom(phone: string, password: string, userAgent: string, ip: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { account: phone, password, agree: true },
    headers: { 'user-agent': userAgent },
    remoteAddress: ip,
  });
  return body<{ token: string }>(res).data.token;
}

describe('sessions', () => {
  it('need a session', async () => {
    expect((await t.app.inject({ url: '/api/sessions' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/sessions/1/revoke' })).statusCode).toBe(401);
  });

  it('lists each session with its device, network and times, and ends one at once', async () => {
    const u = await registerAndLogin(t);
    const phoneToken = await loginFrom(u.phone, u.password, IPHONE, '203.0.113.77');
    const list = body<{ items: Record<string, unknown>[] }>(
      await t.app.inject({ url: '/api/sessions', headers: { token: u.token } }),
    ).data.items;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      device: 'Safari / iOS',
      place: '203.0.113.0/24',
      started_at: t.clock.now().toISOString(),
      current: false,
    });
    expect(list[1]).toMatchObject({ current: true });

    const socket = await TestSocket.open(`${url}?lang=en`);
    socket.send({ op: 'auth', token: phoneToken });
    await socket.next(isType('ready', (m) => m['user_id'] === u.userId));

    const revoked = await t.app.inject({
      method: 'POST',
      url: `/api/sessions/${String(list[0]?.['id'])}/revoke`,
      headers: { token: u.token },
    });
    expect(body(revoked).code).toBe(1);
    await socket.next(isType('error', (m) => m['code'] === 401));
    socket.close();
    expect((await t.app.inject({ url: '/api/sessions', headers: { token: phoneToken } })).statusCode).toBe(
      401,
    );
    expect(
      body<{ items: unknown[] }>(await t.app.inject({ url: '/api/sessions', headers: { token: u.token } }))
        .data.items,
    ).toHaveLength(1);
  });

  it('another user’s session cannot be ended', async () => {
    const owner = await registerAndLogin(t);
    const other = await registerAndLogin(t);
    const [mine] = body<{ items: { id: number }[] }>(
      await t.app.inject({ url: '/api/sessions', headers: { token: owner.token } }),
    ).data.items;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/sessions/${String(mine?.id)}/revoke`,
      headers: { token: other.token },
    });
    expect(body(res).code).toBe(1739);
    expect((await t.app.inject({ url: '/api/sessions', headers: { token: owner.token } })).statusCode).toBe(
      200,
    );
  });

  it('a sign-in from a new device tells the user by message and SMS; a known device and the first do not', async () => {
    const u = await registerAndLogin(t);
    const kinds = async () =>
      body<{ items: { kind: string; params: Record<string, string> }[] }>(
        await t.app.inject({ url: '/api/messages', headers: { token: u.token } }),
      ).data.items.filter((m) => m.kind === 'security.new_device');
    // registerAndLogin's sign-in was the account's first: nothing said
    expect(await kinds()).toEqual([]);
    await loginFrom(u.phone, u.password, IPHONE, '203.0.113.77');
    expect((await kinds()).map((m) => m.params)).toEqual([
      { device: 'Safari / iOS', place: '203.0.113.0/24' },
    ]);
    expect(t.sms.sent.findLast((m) => m.phone === u.phone)).toMatchObject({
      purpose: 'security.new_device',
      text: expect.stringContaining('Safari / iOS') as unknown,
    });
    await loginFrom(u.phone, u.password, IPHONE, '198.51.100.1');
    expect(await kinds()).toHaveLength(1);
  });

  it('names devices and cuts addresses to their network', () => {
    expect(deviceOf(IPHONE)).toBe('Safari / iOS');
    expect(
      deviceOf(
        'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome / Android');
    expect(deviceOf(null)).toBeNull();
    expect(ipPrefix('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(ipPrefix('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::/48');
    expect(ipPrefix('2001:db8::1')).toBe('2001:db8:0::/48');
  });
});
