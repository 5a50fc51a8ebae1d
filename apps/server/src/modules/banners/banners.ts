import { and, asc, desc, eq } from 'drizzle-orm';
import type { Locale, TBanner, TBannerInput, TBannerText, TConsoleBanner } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { banners, uploads } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { audit } from '../console/audit.js';
import { pickVersion } from '../news/fallback.js';
import type { ImageLimits } from '../uploads/image.js';
import type { UploadStore } from '../uploads/storage.js';
import { storeImage, type UploadRow } from '../uploads/uploads.js';

type BannerRow = typeof banners.$inferSelect;
type Who = { operatorId: number; at: Date };

/** How long a process keeps the published banners it read (the public list is read on every home visit). */
export const BANNER_CACHE_MS = 15_000;
/** What the public list and its images tell browsers and proxies: cache briefly. */
export const BANNER_CACHE_CONTROL = 'public, max-age=30';

export function consoleBanner(b: BannerRow): TConsoleBanner {
  return {
    id: b.id,
    state: b.state,
    upload_id: b.uploadId,
    texts: b.texts as TBannerText[],
    link: b.link,
    sort_order: b.sortOrder,
    starts_at: b.startsAt.toISOString(),
    ends_at: b.endsAt?.toISOString() ?? null,
    revision: b.revision,
    updated_at: b.updatedAt.toISOString(),
  };
}

/** What the audit row keeps of a banner, before and after a change. */
const snapshot = (b: BannerRow) => consoleBanner(b);

/** The banner image an operator uploaded (purpose `banner`), or UPLOAD_NOT_FOUND. */
async function bannerImage(db: Executor, id: string): Promise<UploadRow> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  if (!row || row.purpose !== 'banner') throw new AppError('UPLOAD_NOT_FOUND');
  return row;
}

/** An editor uploads a banner image: checked and re-encoded like every upload, audited. */
export async function uploadBannerImage(
  deps: { db: Executor; clock: Clock; store: UploadStore; images: ImageLimits },
  operatorId: number,
  bytes: Uint8Array,
): Promise<UploadRow> {
  const row = await storeImage(deps, { userId: null, operatorId }, 'banner', bytes);
  await audit(deps.db, {
    operatorId,
    action: 'banner.image',
    targetType: 'upload',
    targetId: row.id,
    after: { size: row.size, content_type: row.contentType },
    at: deps.clock.now(),
  });
  return row;
}

const values = (input: TBannerInput) => ({
  uploadId: input.upload_id,
  texts: input.texts,
  link: input.link,
  sortOrder: input.sort_order,
  startsAt: new Date(input.starts_at),
  endsAt: input.ends_at === null ? null : new Date(input.ends_at),
});

export async function listConsoleBanners(db: Executor): Promise<TConsoleBanner[]> {
  const rows = await db.select().from(banners).orderBy(desc(banners.id)).limit(200);
  return rows.map(consoleBanner);
}

async function lockBanner(tx: Executor, id: number): Promise<BannerRow> {
  const [row] = await tx.select().from(banners).where(eq(banners.id, id)).for('update');
  if (!row) throw new AppError('BANNER_NOT_FOUND');
  return row;
}

/**
 * Writes one change to a locked banner and audits it with the banner before and after (and the reason, for a
 * retraction); the published list is read again from the database on its next request.
 */
async function changeBanner(
  tx: Executor,
  who: Who,
  before: BannerRow,
  set: Partial<typeof banners.$inferInsert>,
  action: 'banner.edit' | 'banner.publish' | 'banner.retract',
  reason?: string,
): Promise<TConsoleBanner> {
  const [row] = await tx
    .update(banners)
    .set({ ...set, updatedAt: who.at })
    .where(eq(banners.id, before.id))
    .returning();
  if (!row) throw new Error('update returned nothing');
  await audit(tx, {
    operatorId: who.operatorId,
    action,
    targetType: 'banner',
    targetId: before.id,
    ...(reason === undefined ? {} : { reason }),
    before: snapshot(before),
    after: snapshot(row),
    at: who.at,
  });
  clearBannerCache();
  return consoleBanner(row);
}

/** A new banner, a draft unless `publish`; audited (`banner.create`, and `banner.publish` when published). */
export async function createBanner(
  tx: Executor,
  who: Who,
  input: TBannerInput,
  publish: boolean,
): Promise<TConsoleBanner> {
  await bannerImage(tx, input.upload_id);
  const [row] = await tx
    .insert(banners)
    .values({
      ...values(input),
      state: publish ? 'published' : 'draft',
      createdBy: who.operatorId,
      updatedAt: who.at,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  await audit(tx, {
    operatorId: who.operatorId,
    action: publish ? 'banner.publish' : 'banner.create',
    targetType: 'banner',
    targetId: row.id,
    after: snapshot(row),
    at: who.at,
  });
  clearBannerCache();
  return consoleBanner(row);
}

/** An edit (draft or published, never retracted): the revision moves on; audited with before and after. */
export async function updateBanner(
  tx: Executor,
  who: Who,
  id: number,
  input: TBannerInput,
): Promise<TConsoleBanner> {
  const before = await lockBanner(tx, id);
  if (before.state === 'retracted') throw new AppError('BANNER_RETRACTED');
  await bannerImage(tx, input.upload_id);
  return changeBanner(tx, who, before, { ...values(input), revision: before.revision + 1 }, 'banner.edit');
}

/** Publishes a draft (a published banner stays as it is); audited. */
export async function publishBanner(tx: Executor, who: Who, id: number): Promise<TConsoleBanner> {
  const before = await lockBanner(tx, id);
  if (before.state === 'retracted') throw new AppError('BANNER_RETRACTED');
  if (before.state === 'published') return consoleBanner(before);
  return changeBanner(tx, who, before, { state: 'published' }, 'banner.publish');
}

/** Takes a published banner off the home page for good, with a reason; audited. */
export async function retractBanner(
  tx: Executor,
  who: Who,
  id: number,
  reason: string,
): Promise<TConsoleBanner> {
  const before = await lockBanner(tx, id);
  if (before.state !== 'published') throw new AppError('BANNER_NOT_PUBLISHED');
  return changeBanner(tx, who, before, { state: 'retracted' }, 'banner.retract', reason);
}

// ---------------------------------------------------------------- readers (public)

/** The published banners this process read, per database (tests run several apps in one process). */
let cache = new WeakMap<object, { at: number; rows: BannerRow[] }>();

/** Forgets the published banners this process read (after every change made here). */
export function clearBannerCache(): void {
  cache = new WeakMap();
}

/** Every published banner, in order, from this process's cache when it is fresh (BANNER_CACHE_MS). */
async function publishedBanners(db: Executor): Promise<BannerRow[]> {
  const now = Date.now();
  const hit = cache.get(db);
  if (hit !== undefined && now - hit.at < BANNER_CACHE_MS) return hit.rows;
  const rows = await db
    .select()
    .from(banners)
    .where(eq(banners.state, 'published'))
    .orderBy(asc(banners.sortOrder), asc(banners.id))
    .limit(20);
  cache.set(db, { at: now, rows });
  return rows;
}

const live = (b: BannerRow, now: Date) => b.startsAt <= now && (b.endsAt === null || b.endsAt > now);

/**
 * The home page's banners: published and inside their window now, each in the reader's language or the
 * news fallback order (NEWS_FALLBACK_ORDER).
 */
export async function homeBanners(db: Executor, locale: Locale, now: Date): Promise<TBanner[]> {
  const rows = await publishedBanners(db);
  return rows.flatMap((b) => {
    if (!live(b, now)) return [];
    const picked = pickVersion(b.texts as TBannerText[], locale);
    if (!picked) return [];
    return [
      {
        id: b.id,
        title: picked.version.title,
        alt: picked.version.alt,
        link: b.link,
        locale: picked.version.locale,
        image_url: `/api/banners/${b.id}/image?r=${b.revision}`,
      },
    ];
  });
}

/** The image of a banner shown now (a draft's, a retracted one's or an expired one's is not public). */
export async function liveBannerImage(db: Executor, id: number, now: Date): Promise<UploadRow> {
  const [row] = await db
    .select({ banner: banners, upload: uploads })
    .from(banners)
    .innerJoin(uploads, eq(uploads.id, banners.uploadId))
    .where(and(eq(banners.id, id), eq(banners.state, 'published')));
  if (!row || !live(row.banner, now)) throw new AppError('BANNER_NOT_FOUND');
  return row.upload;
}
