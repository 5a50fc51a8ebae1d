import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_CODES } from './api-error.js';
import { isReconnecting, isTransient, READ_RETRIES, readRetry, readRetryDelay } from './read-retry.js';

/** The retry of reads the web app and the console share (issue 22): what is retried, how often, and when it says so. */
const unavailable = new ApiError({ code: 1760, msg: 'db down', status: 503 });
const network = new ApiError({ code: CLIENT_CODES.network, msg: 'network', status: 0 });
const timeout = new ApiError({ code: CLIENT_CODES.timeout, msg: 'timeout', status: 0 });

describe('which failures are retried', () => {
  it('retries no answer and a 503, up to READ_RETRIES times', () => {
    for (const error of [unavailable, network, timeout]) {
      expect(isTransient(error)).toBe(true);
      expect(readRetry(0, error)).toBe(true);
      expect(readRetry(READ_RETRIES - 1, error)).toBe(true);
      expect(readRetry(READ_RETRIES, error)).toBe(false);
    }
  });

  it('does not retry a refusal, a server bug, a cancelled request or a garbled answer', () => {
    for (const error of [
      new ApiError({ code: 400, msg: 'bad', status: 400 }),
      new ApiError({ code: 401, msg: 'who', status: 401 }),
      new ApiError({ code: 500, msg: 'bug', status: 500 }),
      new ApiError({ code: CLIENT_CODES.aborted, msg: 'stop', status: 0 }),
      new ApiError({ code: CLIENT_CODES.badResponse, msg: '??', status: 0 }),
      new Error('not an API error'),
    ]) {
      expect(readRetry(0, error)).toBe(false);
    }
  });

  it('backs off 1, 2, 4, 8 s, then 10 s', () => {
    expect([0, 1, 2, 3, 4, 5].map(readRetryDelay)).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});

describe('the reconnecting state', () => {
  it('is on while a watched read is retried after a 503, and off at its first success', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: readRetry, retryDelay: 20 } } });
    let calls = 0;
    const observer = new QueryObserver(client, {
      queryKey: ['quotes'],
      queryFn: () => {
        calls += 1;
        if (calls <= 2) return Promise.reject(unavailable);
        return Promise.resolve('ok');
      },
    });
    const states: boolean[] = [];
    const unsubscribeCache = client.getQueryCache().subscribe(() => {
      states.push(isReconnecting(client));
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await expect.poll(() => observer.getCurrentResult().data).toBe('ok');
    expect(states).toContain(true);
    expect(isReconnecting(client)).toBe(false);
    unsubscribe();
    unsubscribeCache();
    client.clear();
  });

  it('stays off for a failure that retrying cannot mend', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: readRetry, retryDelay: 0 } } });
    const observer = new QueryObserver(client, {
      queryKey: ['bad'],
      queryFn: () => Promise.reject(new ApiError({ code: 400, msg: 'bad', status: 400 })),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await expect.poll(() => observer.getCurrentResult().status).toBe('error');
    expect(isReconnecting(client)).toBe(false);
    unsubscribe();
    client.clear();
  });
});
