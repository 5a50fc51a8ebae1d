/**
 * The hosts the web app's webview shows inside the app (each with its subdomains): the Japanese authorities a
 * customer is sent to (the FSA and its consumer hotline, the exchange, the dealers' association, the finance
 * bureaus). Any other address opens outside the app, after a warning naming its host: a page inside the app
 * must never look like ours when it is not. The server's Content-Security-Policy frames only these (and this
 * origin), so the list is one, here (ADR 0032).
 */
export const WEBVIEW_HOSTS: readonly string[] = [
  'fsa.go.jp',
  'mof.go.jp',
  'jpx.co.jp',
  'jsda.or.jp',
  'finmac.or.jp',
  'e-gov.go.jp',
];

/** Whether a host is one of WEBVIEW_HOSTS or a subdomain of one. */
export function isWebviewHost(host: string): boolean {
  const h = host.toLowerCase();
  return WEBVIEW_HOSTS.some((allowed) => h === allowed || h.endsWith(`.${allowed}`));
}
