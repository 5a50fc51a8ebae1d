import { WS_PATH, ZUserInfo, type TUserEvent } from '@kabuto/contract';
import { useEffect, useSyncExternalStore } from 'react';
import { api } from '../api/client';
import { queryClient } from '../api/query-client';
import { sessionStore } from '../session/session';
import { RealtimeConnection } from './connection';
import { applyIndices, applyQuotes, createFrameBatcher } from './quote-cache';

/**
 * The running app's one realtime connection. Quotes and index ticks are batched per animation frame
 * into the query cache; components read them through their usual queries.
 */
function socketUrl(): string {
  return `${window.location.origin.replace(/^http/, 'ws')}${WS_PATH}`;
}

export const realtime = new RealtimeConnection({
  url: socketUrl,
  createSocket: (url) => new WebSocket(url),
  getToken: () => sessionStore.getState().token,
  onRefused: () => {
    checkSession();
  },
  log: (message, detail) => {
    if (import.meta.env.DEV) console.debug(message, detail);
  },
});

/**
 * The socket was told its session has ended (a logout on another device, a password change, expiry). A 401
 * on the socket does not say which of the tokens sent on it was refused, so the API is asked: if it refuses
 * the session too, the API client ends it as for any refused request (the expiry message, then the login
 * page); if it accepts it, the socket authenticates again.
 */
function checkSession(): void {
  api.request({ path: '/index/getUserInfo', schema: ZUserInfo, notify: false }).then(
    () => {
      realtime.tokenChanged();
    },
    () => undefined,
  );
}

let lastToken = sessionStore.getState().token;
sessionStore.subscribe(() => {
  const token = sessionStore.getState().token;
  if (token === lastToken) return;
  lastToken = token;
  realtime.tokenChanged();
});

/** requestAnimationFrame, or a timer when the tab is hidden (rAF does not run there). */
function nextFrame(fn: () => void): void {
  if (typeof document !== 'undefined' && document.visibilityState === 'visible') {
    requestAnimationFrame(fn);
  } else {
    setTimeout(fn, 250);
  }
}

const batcher = createFrameBatcher((quotes, indices) => {
  applyQuotes(queryClient, quotes);
  applyIndices(queryClient, indices);
}, nextFrame);
realtime.onQuote((quote) => {
  batcher.quote(quote);
});
/**
 * The live feed's latest beat (the index time of its last index tick: both indices tick on every beat).
 * A beat confirms every quote the feed carries: a stock that did not trade since is still at its price.
 */
let feedBeatAt = 0;
realtime.onIndex((tick) => {
  batcher.index(tick);
  const at = Date.parse(tick.time);
  if (Number.isFinite(at) && at > feedBeatAt) feedBeatAt = at;
});

export function lastFeedBeat(): number {
  return feedBeatAt;
}

/** Streams quotes of these codes into the cache while the component is mounted. */
export function useQuoteStream(codes: readonly string[]): void {
  const key = [...new Set(codes)].sort().join(',');
  useEffect(() => {
    if (key === '') return;
    return realtime.subscribe(key.split(','));
  }, [key]);
}

/** Keeps the connection open for index ticks (sent to every client) while mounted. */
export function useIndexStream(): void {
  useEffect(() => realtime.hold(), []);
}

/**
 * The user's own events (orders filled, reviews finished…). `onLive` is called whenever they start arriving (at
 * once if they already do): the server does not replay what was missed before, so read again then what the
 * events keep fresh (RealtimeConnection.onUserEvent).
 */
export function subscribeUserEvents(listener: (event: TUserEvent) => void, onLive?: () => void): () => void {
  return realtime.onUserEvent(listener, onLive);
}

/** Whether the server said its live quotes are stale (its pub/sub lost; ADR 0032), re-rendered on change. */
export function useQuotesStale(): boolean {
  return useSyncExternalStore(
    (onChange) => realtime.onStale(onChange),
    () => realtime.isStale(),
  );
}
