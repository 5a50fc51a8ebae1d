import type { LangCode } from '@kabuto/contract/lang';

/**
 * A request's URL as the API clients build it, in a module of its own without zod or the envelope's
 * schemas, so that the web app's boot script can build the first page's reads with it (issue 21).
 */
export type Query = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** `base + path` with the query's set values and `lang` last; `omitEmpty` also leaves out '' values. */
export function urlOf(
  baseUrl: string,
  path: string,
  query: Query | undefined,
  lang: LangCode,
  omitEmpty = false,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || (omitEmpty && value === '')) continue;
    params.set(key, String(value));
  }
  params.set('lang', lang);
  return `${baseUrl}${path}?${params.toString()}`;
}
