import { z } from 'zod';
import { LOCALES } from '../lang.js';
import { ZUploadId } from './funds.js';

// ---------------------------------------------------------------- news and information (ADR 0029)

export const NEWS_CATEGORIES = ['market', 'company', 'notice', 'research', 'feed'] as const;
export const ZNewsCategory = z.enum(NEWS_CATEGORIES);
export type TNewsCategory = z.infer<typeof ZNewsCategory>;

export const ZNewsLocale = z.enum(LOCALES);

/**
 * The language an article is read in when it has no version in the reader's language: the reader's
 * language first, then these, in this order (written once, tested). Chinese readers fall back to the other
 * Chinese script before anything else; everyone falls back to English, then Japanese (the firm's language).
 */
export const NEWS_FALLBACK_ORDER: Record<(typeof LOCALES)[number], readonly (typeof LOCALES)[number][]> = {
  ja: ['ja', 'en', 'zh-Hant', 'zh-Hans', 'fr', 'es'],
  'zh-Hans': ['zh-Hans', 'zh-Hant', 'en', 'ja', 'fr', 'es'],
  'zh-Hant': ['zh-Hant', 'zh-Hans', 'en', 'ja', 'fr', 'es'],
  en: ['en', 'ja', 'fr', 'es', 'zh-Hans', 'zh-Hant'],
  es: ['es', 'en', 'fr', 'ja', 'zh-Hans', 'zh-Hant'],
  fr: ['fr', 'en', 'es', 'ja', 'zh-Hans', 'zh-Hant'],
};

const ZStockCode = z.string().regex(/^[0-9A-Z]{4}$/, { error: 'validation.stockCodeFormat' });

/** One language version as an editor writes it: the body is Markdown (a safe subset; HTML is sanitised). */
export const ZArticleVersionInput = z.object({
  locale: ZNewsLocale,
  title: z.string().trim().min(1).max(200),
  body: z.string().min(1).max(50_000),
});

export const ZArticleInput = z.object({
  category: ZNewsCategory,
  codes: z.array(ZStockCode).max(10).default([]),
  versions: z
    .array(ZArticleVersionInput)
    .min(1)
    .max(6)
    .refine((v) => new Set(v.map((x) => x.locale)).size === v.length, {
      error: 'validation.duplicateLocale',
    }),
  /** when it is shown to readers once published (ISO instant); now when absent */
  publish_at: z.iso.datetime({ offset: true }).optional(),
  pinned: z.boolean().default(false),
});
export type TArticleInput = z.infer<typeof ZArticleInput>;

export const ZArticleRetract = z.object({ reason: z.string().trim().min(1).max(500) });

/** An article as a reader sees it: one language, chosen by the fallback order. */
export const ZNewsItem = z.object({
  id: z.number().int(),
  category: ZNewsCategory,
  title: z.string(),
  /** the first words of the body, as plain text */
  summary: z.string(),
  codes: z.array(z.string()),
  published_at: z.string(),
  pinned: z.boolean(),
  /** the language shown; differs from the reader's when `fallback` is true */
  locale: ZNewsLocale,
  fallback: z.boolean(),
  /** where an imported item comes from (the feed's name), null for the firm's own articles */
  source: z.string().nullable(),
  read: z.boolean(),
});
export type TNewsItem = z.infer<typeof ZNewsItem>;

export const ZNewsDetail = ZNewsItem.extend({
  /** sanitised HTML */
  html: z.string(),
  /** the original's address for an imported item */
  link: z.string().nullable(),
});
export type TNewsDetail = z.infer<typeof ZNewsDetail>;

export const ZNewsQuery = z.object({
  category: ZNewsCategory.optional(),
  code: ZStockCode.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  /** the id of the last item already shown (items come newest first) */
  before: z.coerce.number().int().positive().optional(),
});
export const ZNewsPage = z.object({
  items: z.array(ZNewsItem),
  /** pass as `before` for the next page; null at the end */
  next: z.number().int().nullable(),
  unread: z.number().int(),
});
export type TNewsPage = z.infer<typeof ZNewsPage>;

// ---------------------------------------------------------------- market events (derived, never typed)

export const MARKET_EVENT_KINDS = [
  'limit_up',
  'limit_down',
  'top_gainer',
  'top_loser',
  'new_listing',
  'distribution',
  'dividend_date',
] as const;
export const ZMarketEventKind = z.enum(MARKET_EVENT_KINDS);
export type TMarketEventKind = z.infer<typeof ZMarketEventKind>;

export const ZMarketEvent = z.object({
  kind: ZMarketEventKind,
  code: z.string(),
  name: z.string(),
  /** Tokyo trading date the event belongs to */
  date: z.string(),
  /** basis points of the previous close (movers, limits), when it applies */
  change_bp: z.number().int().nullable(),
  /** sen: the price the event is about (last price, offer price), when it applies */
  price: z.number().int().nullable(),
});
export type TMarketEvent = z.infer<typeof ZMarketEvent>;
export const ZMarketEvents = z.object({ items: z.array(ZMarketEvent), derived: z.literal(true) });

// ---------------------------------------------------------------- console: articles

export const ARTICLE_STATES = ['draft', 'published', 'retracted'] as const;
export const ZArticleState = z.enum(ARTICLE_STATES);

export const ZConsoleArticle = z.object({
  id: z.number().int(),
  state: ZArticleState,
  category: ZNewsCategory,
  codes: z.array(z.string()),
  pinned: z.boolean(),
  publish_at: z.string().nullable(),
  revision: z.number().int(),
  versions: z.array(ZArticleVersionInput.extend({ html: z.string() })),
  updated_at: z.string(),
});
export type TConsoleArticle = z.infer<typeof ZConsoleArticle>;
export const ZConsoleArticleList = z.object({ items: z.array(ZConsoleArticle) });
export const ZArticlePreview = z.object({ html: z.string() });
export const ZArticlePreviewInput = z.object({ body: z.string().min(1).max(50_000) });

// ---------------------------------------------------------------- console: feeds

export const ZFeedInput = z.object({
  name: z.string().trim().min(1).max(80),
  url: z.url({ protocol: /^https?$/ }).max(500),
  locale: ZNewsLocale,
  poll_minutes: z.number().int().min(5).max(1440).default(60),
  active: z.boolean().default(true),
});
export type TFeedInput = z.infer<typeof ZFeedInput>;

export const ZFeed = ZFeedInput.extend({
  id: z.number().int(),
  state: z.enum(['never', 'ok', 'not_modified', 'failed']),
  last_error: z.string().nullable(),
  last_polled_at: z.string().nullable(),
  items: z.number().int(),
});
export const ZFeedList = z.object({ items: z.array(ZFeed) });

// ---------------------------------------------------------------- support conversation

export const SUPPORT_STATES = ['open', 'waiting_user', 'resolved'] as const;
export const ZSupportState = z.enum(SUPPORT_STATES);
export const SUPPORT_TEXT_MAX = 2000;

export const ZSupportMessageInput = z
  .object({
    text: z.string().trim().max(SUPPORT_TEXT_MAX).default(''),
    /** an image already uploaded through POST /api/uploads (checked and re-encoded there) */
    upload_id: ZUploadId.optional(),
  })
  .refine((m) => m.text.length > 0 || m.upload_id !== undefined, { error: 'validation.supportEmpty' });

export const ZSupportMessage = z.object({
  id: z.number().int(),
  from: z.enum(['user', 'staff']),
  text: z.string(),
  upload_id: z.string().nullable(),
  created_at: z.string(),
});
export type TSupportMessage = z.infer<typeof ZSupportMessage>;

export const ZSupportConversation = z.object({
  id: z.number().int().nullable(),
  state: ZSupportState,
  messages: z.array(ZSupportMessage),
  /** staff messages the user has not seen */
  unread: z.number().int(),
});
export type TSupportConversation = z.infer<typeof ZSupportConversation>;

export const ZConsoleSupportItem = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  state: ZSupportState,
  assignee_id: z.number().int().nullable(),
  /** user messages no operator has seen */
  unread: z.number().int(),
  last_message_at: z.string(),
  last_text: z.string(),
});
export const ZConsoleSupportList = z.object({
  items: z.array(ZConsoleSupportItem),
  unread: z.number().int(),
});
export const ZConsoleSupportDetail = ZConsoleSupportItem.extend({ messages: z.array(ZSupportMessage) });
/** A staff answer: text (checked by the fraud guard) and/or an image an operator attached to this conversation. */
export const ZSupportReply = z
  .object({
    text: z.string().trim().max(SUPPORT_TEXT_MAX).default(''),
    /** an image uploaded through POST /api/console/support/:id/images (checked and re-encoded there) */
    upload_id: ZUploadId.optional(),
  })
  .refine((m) => m.text.length > 0 || m.upload_id !== undefined, { error: 'validation.supportEmpty' });
export const ZSupportStateChange = z.object({ state: ZSupportState });
