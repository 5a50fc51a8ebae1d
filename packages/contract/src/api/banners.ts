import { z } from 'zod';
import { LOCALES } from '../lang.js';
import { isWebviewHost } from '../webview.js';
import { ZUploadId } from './funds.js';

// ---------------------------------------------------------------- home banners (issue 19, ADR 0041)

export const BANNER_STATES = ['draft', 'published', 'retracted'] as const;
export const ZBannerState = z.enum(BANNER_STATES);
export type TBannerState = z.infer<typeof ZBannerState>;

/** The title's and the alternative text's longest lengths. */
export const BANNER_TITLE_MAX = 60;
export const BANNER_ALT_MAX = 200;

/** An in-app route of the specification's table: `/pages/...` or `/subPackages/...`, with a plain query. */
const IN_APP_ROUTE =
  /^\/(?:pages|subPackages)\/[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*(?:\?[A-Za-z0-9_.~%=&-]*)?$/;

/**
 * Where a banner may lead: an in-app route (`/pages/...`, `/subPackages/...`), or an https address on a host
 * of the webview's allow-list (WEBVIEW_HOSTS, subdomains included), which the app opens in its webview.
 */
export function isBannerLink(link: string): boolean {
  if (link.startsWith('/')) return IN_APP_ROUTE.test(link);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' && url.username === '' && url.password === '' && isWebviewHost(url.hostname)
  );
}

/** One language's texts: the slide's title (its accessible name) and the image's alternative text. */
export const ZBannerText = z.object({
  locale: z.enum(LOCALES),
  title: z.string().trim().min(1).max(BANNER_TITLE_MAX),
  alt: z.string().trim().min(1).max(BANNER_ALT_MAX),
});
export type TBannerText = z.infer<typeof ZBannerText>;

export const ZBannerInput = z
  .object({
    /** an image an operator uploaded through POST /api/console/banners/images (checked and re-encoded) */
    upload_id: ZUploadId,
    texts: z
      .array(ZBannerText)
      .min(1)
      .max(LOCALES.length)
      .refine((v) => new Set(v.map((x) => x.locale)).size === v.length, {
        error: 'validation.duplicateLocale',
      }),
    link: z.string().trim().min(1).max(500).refine(isBannerLink, { error: 'validation.bannerLink' }),
    /** smaller first; ties by id */
    sort_order: z.number().int().min(0).max(999).default(0),
    /** the publish window (ISO instants); no end: until retracted */
    starts_at: z.iso.datetime({ offset: true }),
    ends_at: z.iso.datetime({ offset: true }).nullable().default(null),
  })
  .refine((b) => b.ends_at === null || Date.parse(b.ends_at) > Date.parse(b.starts_at), {
    error: 'validation.bannerWindow',
    path: ['ends_at'],
  });
export type TBannerInput = z.infer<typeof ZBannerInput>;

export const ZBannerRetract = z.object({ reason: z.string().trim().min(1).max(500) });

/** A banner as the console sees it. */
export const ZConsoleBanner = z.object({
  id: z.number().int(),
  state: ZBannerState,
  upload_id: z.string(),
  texts: z.array(ZBannerText),
  link: z.string(),
  sort_order: z.number().int(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  revision: z.number().int(),
  updated_at: z.string(),
});
export type TConsoleBanner = z.infer<typeof ZConsoleBanner>;
export const ZConsoleBannerList = z.object({ items: z.array(ZConsoleBanner) });

/** An uploaded banner image (the console's answer to its upload). */
export const ZBannerImage = z.object({ id: ZUploadId, content_type: z.string(), size: z.number().int() });

/** A published banner as a reader sees it, in the reader's language or the news fallback order. */
export const ZBanner = z.object({
  id: z.number().int(),
  title: z.string(),
  alt: z.string(),
  link: z.string(),
  /** the language shown: the reader's, or the first of NEWS_FALLBACK_ORDER the banner has */
  locale: z.enum(LOCALES),
  /** GET this (public, cached) for the picture */
  image_url: z.string(),
});
export type TBanner = z.infer<typeof ZBanner>;
export const ZBannerList = z.object({ items: z.array(ZBanner) });
