import { WEBVIEW_HOSTS } from '@kabuto/contract';

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

/** The hosts the webview frames: one list with the server's Content-Security-Policy (ADR 0032). */
export { WEBVIEW_HOSTS } from '@kabuto/contract';

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
