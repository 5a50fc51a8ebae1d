import { NEWS_FALLBACK_ORDER, type Locale } from '@kabuto/contract';

/**
 * The version a reader sees: the first of the reader's fallback order (contract NEWS_FALLBACK_ORDER) the
 * article has, or, for an article in none of them, its first version. `fallback` is true when it is not
 * the reader's language, and the page marks it.
 */
export function pickVersion<V extends { locale: string }>(
  versions: readonly V[],
  reader: Locale,
): { version: V; fallback: boolean } | undefined {
  for (const locale of NEWS_FALLBACK_ORDER[reader]) {
    const version = versions.find((v) => v.locale === locale);
    if (version) return { version, fallback: locale !== reader };
  }
  const first = versions[0];
  return first ? { version: first, fallback: true } : undefined;
}
