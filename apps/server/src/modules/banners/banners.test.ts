import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, operators } from '../../db/schema.js';
import { jpegBytes, multipart, pngBytes } from '../../lib/images.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, TEST_NOW, type TestApp } from '../../test/harness.js';
import { clearBannerCache } from './banners.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function operator(role: 'reviewer' | 'editor' | 'administrator') {
  const username = `bn${Math.random().toString(36).slice(2, 8)}`;
  await t.database.db.insert(operators).values({
    username,
    displayName: username,
    passwordHash: await hashPassword('operator-password-1'),
    role,
    mustChangePassword: false,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username, password: 'operator-password-1' },
  });
  return { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
}

async function uploadImage(headers: Record<string, string>, bytes = pngBytes(20, 8)) {
  const form = multipart({}, { name: 'banner.png', type: 'image/png', bytes });
  return t.app.inject({
    method: 'POST',
    url: '/api/console/banners/images',
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  });
}

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.parse(TEST_NOW) + offsetMs).toISOString();

function input(uploadId: string, overrides: Record<string, unknown> = {}) {
  return {
    upload_id: uploadId,
    texts: [
      { locale: 'ja', title: 'IPOの抽選に参加', alt: '抽選箱と株券のイラスト' },
      { locale: 'en', title: 'Join the IPO draw', alt: 'A draw box and share certificates' },
    ],
    link: '/subPackages/ipo/ipo',
    sort_order: 1,
    starts_at: at(-HOUR),
    ends_at: at(24 * HOUR),
    ...overrides,
  };
}

type Banner = { id: number; title: string; alt: string; link: string; locale: string; image_url: string };
const list = async (lang: string) =>
  body<{ items: Banner[] }>(await t.app.inject({ url: `/api/banners?lang=${lang}` })).data.items;

describe('home banners (ADR 0041)', () => {
  it('an editor uploads an image, creates a draft, publishes, edits and retracts it; each step audited', async () => {
    const editor = await operator('editor');
    const up = await uploadImage(editor);
    expect(up.statusCode, up.body).toBe(200);
    const image = body<{ id: string; content_type: string }>(up).data;
    expect(image.content_type).toBe('image/png');

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/console/banners',
      headers: editor,
      payload: input(image.id),
    });
    expect(created.statusCode, created.body).toBe(200);
    const banner = body<{ id: number; state: string; revision: number }>(created).data;
    expect(banner).toMatchObject({ state: 'draft', revision: 1 });
    // a draft is not on the home page, nor is its picture
    clearBannerCache();
    expect((await list('jp')).map((b) => b.id)).not.toContain(banner.id);
    expect((await t.app.inject({ url: `/api/banners/${banner.id}/image` })).statusCode).toBe(404);

    const published = await t.app.inject({
      method: 'POST',
      url: `/api/console/banners/${banner.id}/publish`,
      headers: editor,
    });
    expect(body<{ state: string }>(published).data.state).toBe('published');

    // public, logged out: the reader's language, or the news fallback order (French reads English)
    const ja = (await list('jp')).find((b) => b.id === banner.id);
    expect(ja).toMatchObject({ title: 'IPOの抽選に参加', locale: 'ja', link: '/subPackages/ipo/ipo' });
    expect((await list('en')).find((b) => b.id === banner.id)).toMatchObject({ title: 'Join the IPO draw' });
    expect((await list('fr')).find((b) => b.id === banner.id)).toMatchObject({ locale: 'en' });
    const listed = await t.app.inject({ url: '/api/banners?lang=jp' });
    expect(listed.headers['cache-control']).toBe('public, max-age=30');
    const picture = await t.app.inject({ url: ja?.image_url ?? '' });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.headers['cache-control']).toBe('public, max-age=30');

    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/console/banners/${banner.id}`,
      headers: editor,
      payload: input(image.id, { link: 'https://www.fsa.go.jp/receipt/soudansitu/', sort_order: 0 }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(body<{ revision: number }>(edited).data.revision).toBe(2);
    expect((await list('jp')).find((b) => b.id === banner.id)?.link).toBe(
      'https://www.fsa.go.jp/receipt/soudansitu/',
    );

    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/console/banners/${banner.id}/retract`,
      headers: editor,
      payload: {},
    });
    expect(noReason.statusCode).toBe(400);
    const retracted = await t.app.inject({
      method: 'POST',
      url: `/api/console/banners/${banner.id}/retract`,
      headers: editor,
      payload: { reason: 'campaign over' },
    });
    expect(body<{ state: string }>(retracted).data.state).toBe('retracted');
    expect((await list('jp')).map((b) => b.id)).not.toContain(banner.id);
    expect((await t.app.inject({ url: `/api/banners/${banner.id}/image` })).statusCode).toBe(404);
    // a retracted banner is not changed again
    const again = await t.app.inject({
      method: 'PUT',
      url: `/api/console/banners/${banner.id}`,
      headers: editor,
      payload: input(image.id),
    });
    expect(body(again).code).toBe(1931);
    const republish = await t.app.inject({
      method: 'POST',
      url: `/api/console/banners/${banner.id}/publish`,
      headers: editor,
    });
    expect(body(republish).code).toBe(1931);

    const actions = await t.database.db
      .select({ action: auditLog.action, reason: auditLog.reason, before: auditLog.before })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'banner'), eq(auditLog.targetId, String(banner.id))))
      .orderBy(auditLog.id);
    expect(actions.map((a) => a.action)).toEqual([
      'banner.create',
      'banner.publish',
      'banner.edit',
      'banner.retract',
    ]);
    expect(actions[3]?.reason).toBe('campaign over');
    const before: unknown = actions[2]?.before;
    expect(typeof before === 'string' ? JSON.parse(before) : before).toMatchObject({
      link: '/subPackages/ipo/ipo',
    });
    const uploadAudit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'banner.image'), eq(auditLog.targetId, image.id)));
    expect(uploadAudit).toHaveLength(1);
  });

  it('shows a banner only inside its publish window, in order', async () => {
    const editor = await operator('administrator');
    const image = body<{ id: string }>(await uploadImage(editor)).data;
    const make = async (overrides: Record<string, unknown>) =>
      body<{ id: number }>(
        await t.app.inject({
          method: 'POST',
          url: '/api/console/banners?publish=true',
          headers: editor,
          payload: input(image.id, overrides),
        }),
      ).data.id;
    const later = await make({ starts_at: at(2 * HOUR), ends_at: null });
    const over = await make({ starts_at: at(-3 * HOUR), ends_at: at(-HOUR) });
    const second = await make({ sort_order: 20 });
    const first = await make({ sort_order: 10, ends_at: null });
    const ids = (await list('jp')).map((b) => b.id);
    expect(ids).not.toContain(later);
    expect(ids).not.toContain(over);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect((await t.app.inject({ url: `/api/banners/${later}/image` })).statusCode).toBe(404);
  });

  it('refuses bad input with the field named, never a 500', async () => {
    const editor = await operator('editor');
    const image = body<{ id: string }>(await uploadImage(editor)).data;
    const cases: [Record<string, unknown>, string][] = [
      [{ link: 'https://evil.example.com/deposit' }, 'link'],
      [{ link: 'javascript:alert(1)' }, 'link'],
      [{ link: 'http://www.fsa.go.jp/' }, 'link'],
      [{ link: '/pages/../../etc' }, 'link'],
      [{ ends_at: at(-2 * HOUR) }, 'ends_at'],
      [{ texts: [] }, 'texts'],
      [
        {
          texts: [
            { locale: 'ja', title: 'a', alt: 'b' },
            { locale: 'ja', title: 'c', alt: 'd' },
          ],
        },
        'texts',
      ],
      [{ texts: [{ locale: 'ja', title: 'x'.repeat(61), alt: 'b' }] }, 'texts.0.title'],
      [{ texts: [{ locale: 'ja', title: 'a', alt: '' }] }, 'texts.0.alt'],
      [{ upload_id: 'nope' }, 'upload_id'],
    ];
    for (const [overrides, field] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/console/banners?lang=en',
        headers: editor,
        payload: input(image.id, overrides),
      });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      const issues = body<{ issues: { field: string; message: string }[] }>(res).data.issues;
      expect(issues.map((i) => i.field)).toContain(field);
    }
    const linkIssue = body<{ issues: { field: string; message: string }[] }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/console/banners?lang=jp',
        headers: editor,
        payload: input(image.id, { link: 'https://evil.example.com/' }),
      }),
    ).data.issues[0];
    expect(linkIssue?.message).toContain('許可リスト');
    // an image that is not a banner image (a user's upload), or none at all
    const user = await registerAndLogin(t);
    const form = multipart(
      { purpose: 'support' },
      { name: 'a.png', type: 'image/png', bytes: pngBytes(4, 4) },
    );
    const userUpload = body<{ id: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { token: user.token, ...form.headers },
        payload: form.payload,
      }),
    ).data;
    for (const uploadId of [userUpload.id, 'f'.repeat(64)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/console/banners',
        headers: editor,
        payload: input(uploadId),
      });
      expect(body(res).code).toBe(1305);
    }
    // not an image
    const text = await uploadImage(editor, Buffer.from('<svg onload="alert(1)"></svg>'));
    expect(body(text).code).toBe(1303);
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/console/banners/2000000000',
      headers: editor,
      payload: input(image.id),
    });
    expect(body(missing).code).toBe(1930);
    const draft = body<{ id: number }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/console/banners',
        headers: editor,
        payload: input(image.id),
      }),
    ).data;
    const retractDraft = await t.app.inject({
      method: 'POST',
      url: `/api/console/banners/${draft.id}/retract`,
      headers: editor,
      payload: { reason: 'x' },
    });
    expect(body(retractDraft).code).toBe(1932);
  });

  it('re-encodes the image: the stored picture carries no metadata', async () => {
    const editor = await operator('editor');
    const up = await uploadImage(editor, jpegBytes({ exif: 'GPS 35.6812,139.7671', comment: 'secret' }));
    const image = body<{ id: string; content_type: string }>(up).data;
    expect(image.content_type).toBe('image/jpeg');
    const id = body<{ id: number }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/console/banners?publish=true',
        headers: editor,
        payload: input(image.id),
      }),
    ).data.id;
    const picture = await t.app.inject({ url: `/api/banners/${id}/image` });
    expect(picture.rawPayload.includes(Buffer.from('GPS 35.6812'))).toBe(false);
    expect(picture.rawPayload.includes(Buffer.from('secret'))).toBe(false);
  });

  it('keeps the console routes to editors and administrators: logged out 401, reviewer and customer 403', async () => {
    const reviewer = await operator('reviewer');
    const user = await registerAndLogin(t);
    for (const [method, url] of [
      ['GET', '/api/console/banners'],
      ['POST', '/api/console/banners'],
      ['PUT', '/api/console/banners/1'],
      ['POST', '/api/console/banners/1/publish'],
      ['POST', '/api/console/banners/1/retract'],
      ['POST', '/api/console/banners/images'],
    ] as const) {
      expect((await t.app.inject({ method, url, payload: {} })).statusCode, url).toBe(401);
      expect((await t.app.inject({ method, url, headers: reviewer, payload: {} })).statusCode, url).toBe(403);
      // a customer's session token is no operator's
      const asUser = await t.app.inject({ method, url, headers: { token: user.token }, payload: {} });
      expect(asUser.statusCode, url).toBe(401);
    }
  });
});
