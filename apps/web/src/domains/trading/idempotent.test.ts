import { describe, expect, it, vi } from 'vitest';
import { ApiError, CLIENT_CODES } from '@kabuto/client/api-error';
import { createIdempotentAction, sendWithRetry } from './idempotent';

const networkError = () => new ApiError({ code: CLIENT_CODES.network, msg: 'network', status: 0 });
const timeoutError = () => new ApiError({ code: CLIENT_CODES.timeout, msg: 'timeout', status: 0 });
const refused = () => new ApiError({ code: 1203, msg: 'insufficient funds', status: 422 });

function keys() {
  let n = 0;
  return () => `key-${String(++n)}`;
}

describe('idempotent order sending', () => {
  it('uses a new key for every new order', async () => {
    const perform = vi.fn((_input: string, key: string) => Promise.resolve(key));
    const action = createIdempotentAction(perform, keys());
    await expect(action.send('a')).resolves.toBe('key-1');
    await expect(action.send('b')).resolves.toBe('key-2');
    expect(perform.mock.calls).toEqual([
      ['a', 'key-1'],
      ['b', 'key-2'],
    ]);
  });

  it('generates keys with crypto.randomUUID by default (valid Idempotency-Key characters)', async () => {
    const seen: string[] = [];
    const action = createIdempotentAction((_i: number, key: string) => {
      seen.push(key);
      return Promise.resolve(null);
    });
    await action.send(1);
    await action.send(2);
    expect(seen[0]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(seen[0]).not.toBe(seen[1]);
  });

  it('retries after a network error or a timeout with the same key', async () => {
    const perform = vi
      .fn<(input: string, key: string) => Promise<string>>()
      .mockRejectedValueOnce(networkError())
      .mockRejectedValueOnce(timeoutError())
      .mockResolvedValueOnce('ok');
    const action = createIdempotentAction(perform, keys());
    await expect(action.send('order')).rejects.toBeInstanceOf(ApiError);
    expect(action.canRetry()).toBe(true);
    await expect(action.retry()).rejects.toBeInstanceOf(ApiError);
    await expect(action.retry()).resolves.toBe('ok');
    expect(perform.mock.calls).toEqual([
      ['order', 'key-1'],
      ['order', 'key-1'],
      ['order', 'key-1'],
    ]);
    // Done: nothing more to retry, and the next order gets a new key.
    expect(action.canRetry()).toBe(false);
    perform.mockResolvedValueOnce('next');
    await action.send('another');
    expect(perform.mock.calls.at(-1)).toEqual(['another', 'key-2']);
  });

  it('offers no retry after an answer from the server', async () => {
    const perform = vi.fn<(input: string, key: string) => Promise<string>>().mockRejectedValueOnce(refused());
    const action = createIdempotentAction(perform, keys());
    await expect(action.send('order')).rejects.toMatchObject({ code: 1203 });
    expect(action.canRetry()).toBe(false);
    await expect(action.retry()).rejects.toThrow('nothing to retry');
    expect(perform).toHaveBeenCalledOnce();
  });

  it('sendWithRetry asks the user and resends with the same key', async () => {
    const perform = vi
      .fn<(input: string, key: string) => Promise<string>>()
      .mockRejectedValueOnce(timeoutError())
      .mockResolvedValueOnce('placed');
    const ask = vi.fn(() => Promise.resolve(true));
    const action = createIdempotentAction(perform, keys());
    await expect(sendWithRetry(action, 'order', ask)).resolves.toBe('placed');
    expect(ask).toHaveBeenCalledOnce();
    expect(perform.mock.calls.map(([, key]) => key)).toEqual(['key-1', 'key-1']);
  });

  it('sendWithRetry gives up when the user declines, and rethrows server refusals', async () => {
    const perform = vi
      .fn<(input: string, key: string) => Promise<string>>()
      .mockRejectedValueOnce(networkError())
      .mockRejectedValueOnce(refused());
    const action = createIdempotentAction(perform, keys());
    await expect(sendWithRetry(action, 'a', () => Promise.resolve(false))).resolves.toBeNull();
    const ask = vi.fn(() => Promise.resolve(true));
    await expect(sendWithRetry(action, 'b', ask)).rejects.toMatchObject({ code: 1203 });
    expect(ask).not.toHaveBeenCalled();
    expect(perform.mock.calls.map(([, key]) => key)).toEqual(['key-1', 'key-2']);
  });
});
