/** The webview page only shows http(s) addresses; anything else (javascript:, data:, relative) is refused. */
export function safeWebUrl(raw: string | null): string | null {
  if (raw === null || raw.trim() === '') return null;
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * The hosts the webview shows inside the app (each with its subdomains): this app's own and the Japanese
 * authorities a customer is sent to (the FSA and its consumer hotline, the exchange, the dealers'
 * association, the finance bureaus). Any other address opens outside the app, after a warning naming its
 * host: a page inside the app must never look like ours when it is not.
 */
export const WEBVIEW_HOSTS: readonly string[] = [
  'fsa.go.jp',
  'mof.go.jp',
  'jpx.co.jp',
  'jsda.or.jp',
  'finmac.or.jp',
  'e-gov.go.jp',
];

export type WebviewTarget =
  { kind: 'invalid' } | { kind: 'inside'; url: string } | { kind: 'outside'; url: string; host: string };

/** Where an address opens: inside (an allowed host or this app's own origin), outside with a warning, or not at all. */
export function webviewTarget(raw: string | null, ownOrigin: string): WebviewTarget {
  const url = safeWebUrl(raw);
  if (url === null) return { kind: 'invalid' };
  const parsed = new URL(url);
  const host = parsed.hostname.toLowerCase();
  const allowed =
    parsed.origin === ownOrigin ||
    (parsed.protocol === 'https:' && WEBVIEW_HOSTS.some((h) => host === h || host.endsWith(`.${h}`)));
  return allowed ? { kind: 'inside', url } : { kind: 'outside', url, host };
}
