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
