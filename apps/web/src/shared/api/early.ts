/**
 * The first page's reads, sent by the boot script while the app's code is still on its way (issue 21, ADR
 * 0058), and handed to the API client when the page asks for them.
 *
 * A page asks for its data as it first renders, after the framework, the client, the catalogues and its own
 * code have arrived and run: on a phone the request's round trip then came after all of that, before the page's
 * largest paint. Sent from the boot script, the answer is usually in by the time the page asks.
 *
 * An early read is the very request the client would send (the same URL and token; app/first-reads.ts builds
 * it with the client's own URL builder), taken at most once, and only within EARLY_READ_TTL_MS of its start:
 * a page that asks later, or asks again, gets a fresh answer from the server. No zod and no React here: this
 * module is part of the boot script.
 */
import type { Query } from '@kabuto/client/url';

/** How long an early read waits to be taken; a page's first render comes well within it. */
export const EARLY_READ_TTL_MS = 10_000;

interface EarlyRead {
  token: string | null;
  startedAt: number;
  response: Promise<Response>;
}

const reads = new Map<string, EarlyRead>();

export interface EarlyReadDeps {
  fetch: typeof fetch;
  now: () => number;
}

const defaultDeps: EarlyReadDeps = {
  fetch: (input, init) => fetch(input, init),
  now: () => Date.now(),
};

/** A GET as a page's query asks for it: the path under /api and the query (the client adds `lang`). */
export interface ApiRead {
  path: string;
  query?: Query;
}

/**
 * Sends a GET of `url` as the API client would (JSON, the session's token if there is one) and keeps its answer
 * for takeEarlyRead. `peek`, if given, sees a copy of a successful answer's JSON (the page's copy stays unread).
 */
export function startEarlyRead(
  url: string,
  token: string | null,
  peek?: (body: unknown) => void,
  deps: EarlyReadDeps = defaultDeps,
): void {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== null && token !== '') headers.token = token;
  const response = deps.fetch(url, { method: 'GET', headers });
  reads.set(url, { token: token === '' ? null : token, startedAt: deps.now(), response });
  // An early read nobody takes must not surface as an unhandled rejection (whoever takes it sees the failure),
  // nor may a peek that fails.
  response
    .then(async (r) => {
      if (peek !== undefined && r.ok) peek(await r.clone().json());
    })
    .catch(() => undefined);
}

function tokenOf(headers: HeadersInit | undefined): string | null {
  if (headers === undefined) return null;
  const value = new Headers(headers).get('token');
  return value === null || value === '' ? null : value;
}

/**
 * The early answer to this request, once, or undefined when there is none to give: not a GET, a different
 * token (the session changed since), or started too long ago. The caller's signal still cancels the wait.
 */
export function takeEarlyRead(
  url: string,
  init: RequestInit | undefined,
  now: () => number = defaultDeps.now,
): Promise<Response> | undefined {
  const read = reads.get(url);
  if (read === undefined) return undefined;
  reads.delete(url);
  if ((init?.method ?? 'GET') !== 'GET') return undefined;
  if (tokenOf(init?.headers) !== read.token) return undefined;
  if (now() - read.startedAt > EARLY_READ_TTL_MS) return undefined;
  const signal = init?.signal;
  if (signal === undefined || signal === null) return read.response;
  return new Promise<Response>((resolve, reject) => {
    const abort = () => {
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
    };
    if (signal.aborted) {
      abort();
      return;
    }
    signal.addEventListener('abort', abort, { once: true });
    read.response.then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', abort);
    });
  });
}

/** A fetch that answers from an early read when one matches, and from the network otherwise. */
export function withEarlyReads(network: typeof fetch): typeof fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return takeEarlyRead(url, init) ?? network(input, init);
  };
}

/** Forgets every early read (tests). */
export function clearEarlyReads(): void {
  reads.clear();
}
