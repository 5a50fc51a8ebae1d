import { DEFAULT_LANG, isLangCode, type LangCode } from '@kabuto/contract/lang';
import { urlOf } from '@kabuto/client/url';
import { bannersRead, firstBannerImage, HOT_STOCKS } from '@/features/home/api/home-reads';
import { marketPageReads } from '@/features/market/api/market-page-reads';
import { stockPageReads } from '@/features/stock-detail/api/stock-page-reads';
import { marketReads } from '@/domains/market/market-reads';
import { startEarlyRead, type ApiRead } from '@/shared/api/early';
import { marketStatusRead } from '@/shared/market-clock/status-read';
import { PAGE_PATHS, TAB_PATHS } from '@/shared/navigation/routes';
import { pageAt } from './pages';

/**
 * What the first page reads before it can paint, sent by the boot script beside the app's code (issue 21, ADR
 * 0058; shared/api/early.ts hands the answers to the client). Only pages whose largest paint waits on data are
 * here: home (the first banner, then the hot stocks), the market's lists and a stock's quote and chart. Each
 * page's module gives the reads its queries make, so the URLs are the client's own.
 */
interface FirstReads {
  reads: ApiRead[];
  /** Looks at an answer (by the read's path) to start what it names: the first banner's image. */
  peek?: Partial<Record<string, (body: unknown) => void>>;
}

const FIRST_READS: Readonly<Record<string, (params: URLSearchParams) => FirstReads>> = {
  [TAB_PATHS.home]: () => ({
    reads: [bannersRead(), marketReads.list(HOT_STOCKS), marketStatusRead(), marketReads.indices()],
    peek: { [bannersRead().path]: preloadFirstBanner },
  }),
  [TAB_PATHS.market]: (params) => ({ reads: marketPageReads(params) }),
  [PAGE_PATHS.stockDetail]: (params) => ({ reads: stockPageReads(params) }),
};

/** The reads of the page a hash URL opens (none for most pages). */
export function firstReadsOf(hash: string): FirstReads {
  const page = pageAt(hash);
  if (page === undefined) return { reads: [] };
  const query = hash.split('?')[1] ?? '';
  return FIRST_READS[page.path]?.(new URLSearchParams(query)) ?? { reads: [] };
}

/** Sends the first page's reads as the API client (base /api) would, in the stored language, with the token. */
export function startFirstReads(hash: string, storedLang: string | null, token: string | null): void {
  const lang: LangCode = isLangCode(storedLang) ? storedLang : DEFAULT_LANG;
  const { reads, peek } = firstReadsOf(hash);
  for (const read of reads) {
    startEarlyRead(urlOf('/api', read.path, read.query, lang), token, peek?.[read.path]);
  }
}

/** Starts the home page's largest image, the first banner, as soon as the banners' answer names it. */
function preloadFirstBanner(body: unknown): void {
  const href = firstBannerImage(body);
  if (href === undefined) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = href;
  link.fetchPriority = 'high';
  document.head.append(link);
}
