import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WEBVIEW_HOSTS } from '@kabuto/contract';

/** A Host header that can go into a header value as it is (name or address, optional port); anything else is not echoed. */
const SAFE_HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/**
 * The policy of the web app and of the console (ADR 0032). Scripts only from this origin (the Vite builds
 * emit no inline script); styles also inline, because antd's CSS-in-JS writes <style> elements at run time and
 * both UI kits set style attributes, whose contents no hash list could follow; images from this origin, data:
 * and blob: (uploads fetched with the token become object URLs) and https: (pictures in sanitised news
 * articles); connections only to this origin and its WebSocket; frames only of this origin and the
 * webview's allow-listed authorities (the contract's WEBVIEW_HOSTS); no plugins, no <base>, forms only to this origin, framed only by this origin.
 */
export function contentSecurityPolicy(host: string | undefined): string {
  const sockets = host && SAFE_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  const frames = WEBVIEW_HOSTS.map((h) => `https://${h} https://*.${h}`).join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${sockets}`,
    `frame-src 'self' ${frames}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** API answers are data, never a document: nothing may load from them, and no page may frame them. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Two years, with subdomains: what browsers' preload lists ask for. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/** Whether a path is one of the two front ends' (their documents and files). */
function isFrontEnd(url: string): boolean {
  return /^\/(?:japan1|console)(?:[/?#]|$)/.test(url);
}

/**
 * A front end's built script or stylesheet (`assets/*.js`, `*.css`): never a document, so the headers that
 * govern documents (CSP, framing, referrer) do nothing on it. It loads only as a subresource, and browsers
 * render a script or stylesheet opened on its own as text under nosniff, so nothing on it runs as a page.
 */
export function isScriptOrStyleAsset(url: string): boolean {
  return /^\/(?:japan1|console)\/assets\/[^/?#]+\.(?:js|css)(?:[?#]|$)/.test(url);
}

/**
 * Security headers on every answer: the CSP (the front ends' policy on their files, a deny-all one on the
 * API), HSTS when the request arrived over HTTPS (request.protocol follows X-Forwarded-Proto only when
 * TRUST_PROXY is set), nosniff, no referrer, framing by this origin only. A route's own CSP, set before, stays.
 * A built script or stylesheet gets nosniff and HSTS only: on a phone's HTTP/1.1 line the document headers
 * (1 KiB with the CSP) were as large as many of the sixty small files a page loads (issue 21, ADR 0055).
 */
export function securityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // only the file itself: an error answer at such a path (a missing asset's 404) keeps them all
    if (reply.statusCode < 400 && isScriptOrStyleAsset(request.url)) {
      done(null, payload);
      return;
    }
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'SAMEORIGIN');
    // a route that set its own policy keeps it (an upload's image answers `default-src 'none'; sandbox`)
    if (!reply.hasHeader('content-security-policy')) {
      reply.header(
        'content-security-policy',
        isFrontEnd(request.url) ? contentSecurityPolicy(request.headers.host) : API_POLICY,
      );
    }
    done(null, payload);
  });
}
