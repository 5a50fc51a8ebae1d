import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, newsArticleRevisions, operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let opCounter = 0;
async function operator(role: 'reviewer' | 'editor' | 'administrator') {
  opCounter += 1;
  const username = `news${opCounter}`;
  const [row] = await t.database.db
    .insert(operators)
    .values({
      username,
      displayName: username,
      passwordHash: await hashPassword('operator-password-1'),
      role,
      mustChangePassword: false,
    })
    .returning();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username, password: 'operator-password-1' },
  });
  if (!row) throw new Error('no operator');
  return { id: row.id, headers: { authorization: `Bearer ${body<{ token: string }>(res).data.token}` } };
}

const ARTICLE = {
  category: 'company',
  codes: ['7203'],
  versions: [
    { locale: 'ja', title: 'トヨタ、通期予想を上方修正', body: '**増益**の見通し<script>alert(1)</script>' },
    { locale: 'en', title: 'Toyota raises its forecast', body: 'Profit **up** <img src=x onerror=alert(1)>' },
  ],
};

type Item = { id: number; title: string; locale: string; fallback: boolean; read: boolean; html?: string };

describe('articles: written in the console, read in the reader’s language (ADR 0029)', () => {
  it('publishes in ja and en; readers in ja, en and fr see their version or the marked fallback', async () => {
    const editor = await operator('editor');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/console/news?publish=true',
      headers: editor.headers,
      payload: ARTICLE,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = body<{ id: number; state: string }>(created).data.id;
    expect(body<{ state: string }>(created).data.state).toBe('published');

    const read = async (lang: string) =>
      body<Item>(await t.app.inject({ url: `/api/news/${id}?lang=${lang}` })).data;
    expect(await read('jp')).toMatchObject({
      title: 'トヨタ、通期予想を上方修正',
      locale: 'ja',
      fallback: false,
    });
    expect(await read('en')).toMatchObject({
      title: 'Toyota raises its forecast',
      locale: 'en',
      fallback: false,
    });
    expect(await read('fr')).toMatchObject({
      title: 'Toyota raises its forecast',
      locale: 'en',
      fallback: true,
    });
    const ja = await read('jp');
    expect(ja.html).toBe('<p><strong>増益</strong>の見通し</p>');
    expect((await read('en')).html).not.toMatch(/onerror|<script/);

    // the stock's news lists it; another stock's does not
    const forCode = async (code: string) =>
      body<{ items: Item[] }>(await t.app.inject({ url: `/api/news?lang=en&code=${code}` })).data.items.map(
        (i) => i.id,
      );
    expect(await forCode('7203')).toContain(id);
    expect(await forCode('6758')).not.toContain(id);
  });

  it('keeps every previous version and audits publish, edit and retraction', async () => {
    const editor = await operator('editor');
    const draft = body<{ id: number; state: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/console/news',
        headers: editor.headers,
        payload: ARTICLE,
      }),
    ).data;
    expect(draft.state).toBe('draft');
    // a draft is not for readers
    expect(body(await t.app.inject({ url: `/api/news/${draft.id}?lang=en` })).code).toBe(1651);
    await t.app.inject({
      method: 'POST',
      url: `/api/console/news/${draft.id}/publish`,
      headers: editor.headers,
    });
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/console/news/${draft.id}`,
      headers: editor.headers,
      payload: { ...ARTICLE, versions: [{ locale: 'ja', title: '訂正版', body: '本文' }] },
    });
    expect(body<{ revision: number }>(edited).data.revision).toBe(3);
    const retracted = await t.app.inject({
      method: 'POST',
      url: `/api/console/news/${draft.id}/retract`,
      headers: editor.headers,
      payload: { reason: '誤報のため' },
    });
    expect(body<{ state: string }>(retracted).data.state).toBe('retracted');
    expect(body(await t.app.inject({ url: `/api/news/${draft.id}?lang=jp` })).code).toBe(1651);
    const again = await t.app.inject({
      method: 'PUT',
      url: `/api/console/news/${draft.id}?lang=en`,
      headers: editor.headers,
      payload: ARTICLE,
    });
    expect(body(again)).toMatchObject({
      code: 1652,
      msg: 'This article has been retracted and can no longer be changed',
    });

    const revisions = await t.database.db
      .select()
      .from(newsArticleRevisions)
      .where(eq(newsArticleRevisions.articleId, draft.id));
    expect(revisions.map((r) => [r.revision, r.action])).toEqual([
      [1, 'publish'],
      [2, 'edit'],
      [3, 'retract'],
    ]);
    expect(
      (revisions[1]?.snapshot as { versions: { title: string }[] }).versions.map((v) => v.title),
    ).toContain('Toyota raises its forecast');
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(draft.id)));
    expect(audits.filter((a) => a.targetType === 'news_article').map((a) => a.action)).toEqual([
      'news.create',
      'news.publish',
      'news.edit',
      'news.retract',
    ]);
  });

  it('pages newest first with a cursor, pinned first, and marks what a signed-in reader opened', async () => {
    const editor = await operator('administrator');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/console/news?publish=true',
        headers: editor.headers,
        payload: {
          category: 'market',
          versions: [{ locale: 'en', title: `Market ${i}`, body: 'text' }],
          pinned: i === 0,
        },
      });
      ids.push(body<{ id: number }>(res).data.id);
    }
    const user = await registerAndLogin(t);
    const page = async (before?: number) =>
      body<{ items: Item[]; next: number | null; unread: number }>(
        await t.app.inject({
          url: `/api/news?lang=en&category=market&limit=2${before ? `&before=${before}` : ''}`,
          headers: { token: user.token },
        }),
      ).data;
    const first = await page();
    expect(first.items.map((i) => i.title)).toEqual(['Market 0', 'Market 4', 'Market 3']);
    expect(first.next).not.toBeNull();
    const second = await page(first.next ?? undefined);
    expect(second.items.map((i) => i.title)).toEqual(['Market 2', 'Market 1']);
    expect(second.next).toBeNull();
    expect(first.items.every((i) => !i.read)).toBe(true);
    const unread = first.unread;
    await t.app.inject({ url: `/api/news/${ids[4]}?lang=en`, headers: { token: user.token } });
    const after = await page();
    expect(after.items.find((i) => i.id === ids[4])?.read).toBe(true);
    expect(after.unread).toBe(unread - 1);
  });

  it('refuses readers’ and reviewers’ access to the editor’s routes, and bad input with a clear error', async () => {
    const user = await registerAndLogin(t);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/console/news',
          headers: { token: user.token },
          payload: ARTICLE,
        })
      ).statusCode,
    ).toBe(401);
    const reviewer = await operator('reviewer');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/console/news',
          headers: reviewer.headers,
          payload: ARTICLE,
        })
      ).statusCode,
    ).toBe(403);
    const editor = await operator('editor');
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/console/news?lang=en',
      headers: editor.headers,
      payload: { ...ARTICLE, versions: [ARTICLE.versions[0], ARTICLE.versions[0]] },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.body).toContain('Each language may have one version only');
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/console/news/preview',
      headers: editor.headers,
      payload: { body: '[x](javascript:alert(1)) *ok*' },
    });
    expect(body<{ html: string }>(preview).data.html).not.toContain('javascript:');
  });

  it('answers derived market events, labelled as derived', async () => {
    const res = await t.app.inject({ url: '/api/news/events?lang=en' });
    const data = body<{ derived: boolean; items: { kind: string }[] }>(res).data;
    expect(data.derived).toBe(true);
    expect(Array.isArray(data.items)).toBe(true);
  });
});
