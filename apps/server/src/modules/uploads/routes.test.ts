import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operators } from '../../db/schema.js';
import { heicBytes, multipart, pngBytes } from '../../lib/images.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { thumbnailKey } from './storage.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_MAX_SIDE: '256', UPLOAD_THUMBNAIL_SIDE: '64' });
});
afterAll(() => t.close());

let signedIn: Record<string, string> | undefined;
/** A reviewer's bearer header (the operator is made on first use). */
async function reviewer(): Promise<Record<string, string>> {
  if (signedIn) return signedIn;
  await t.database.db.insert(operators).values({
    username: 'photo-reviewer',
    displayName: 'Photo reviewer',
    passwordHash: await hashPassword('operator-password-1'),
    role: 'reviewer',
    mustChangePassword: false,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username: 'photo-reviewer', password: 'operator-password-1' },
  });
  signedIn = { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
  return signedIn;
}

async function upload(token: string, bytes: Buffer, lang = 'en') {
  const form = multipart({ purpose: 'identity_front' }, { name: 'photo', type: 'image/jpeg', bytes });
  return t.app.inject({
    method: 'POST',
    url: `/api/uploads?lang=${lang}`,
    headers: { ...form.headers, token },
    payload: form.payload,
  });
}

describe('uploaded photos', () => {
  it('are stored capped at UPLOAD_MAX_SIDE, with a thumbnail the console reads (audited)', async () => {
    const user = await registerAndLogin(t, { verified: false });
    const photo = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#c00' } })
      .jpeg()
      .toBuffer();
    const res = await upload(user.token, photo);
    expect(res.statusCode, res.body).toBe(200);
    const { id, content_type } = body<{ id: string; content_type: string }>(res).data;
    expect(content_type).toBe('image/jpeg');
    const own = await t.app.inject({ url: `/api/uploads/${id}`, headers: { token: user.token } });
    const stored = await sharp(own.rawPayload).metadata();
    expect([stored.width, stored.height]).toEqual([256, 128]);

    const headers = await reviewer();
    const thumb = await t.app.inject({ url: `/api/console/uploads/${id}/thumbnail`, headers });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const small = await sharp(thumb.rawPayload).metadata();
    expect([small.format, small.width, small.height]).toEqual(['jpeg', 64, 32]);
    // a user cannot read the thumbnail route
    const asUser = await t.app.inject({
      url: `/api/console/uploads/${id}/thumbnail`,
      headers: { token: user.token },
    });
    expect(asUser.statusCode).toBe(401);
    const audited = await t.database.db.execute(
      sql`select action from audit_log where target_type = 'upload' and target_id = ${id}`,
    );
    expect((audited as { rows: { action: string }[] }).rows.map((r) => r.action)).toEqual(['upload.view']);
  });

  it('makes the thumbnail of an upload stored before thumbnails existed, once', async () => {
    const user = await registerAndLogin(t, { verified: false });
    const res = await upload(user.token, pngBytes(200, 100));
    const { id } = body<{ id: string }>(res).data;
    await t.app.ctx.uploads.delete(thumbnailKey(id));
    expect(await t.app.ctx.uploads.get(thumbnailKey(id))).toBeNull();
    const headers = await reviewer();
    const thumb = await t.app.inject({ url: `/api/console/uploads/${id}/thumbnail`, headers });
    expect(thumb.statusCode).toBe(200);
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(64);
    expect(await t.app.ctx.uploads.get(thumbnailKey(id))).toEqual(thumb.rawPayload);
  });

  it.each([
    ['en', 'HEIC photos cannot be read'],
    ['jp', 'HEIC形式の写真は読み込めません'],
  ])('refuses HEIC with a message that says what to do (%s)', async (lang, start) => {
    const user = await registerAndLogin(t, { verified: false });
    const res = await upload(user.token, heicBytes(), lang);
    expect(res.statusCode).toBe(415);
    const answer = body(res);
    expect(answer.code).toBe(1307);
    expect(answer.msg.startsWith(start)).toBe(true);
  });
});
