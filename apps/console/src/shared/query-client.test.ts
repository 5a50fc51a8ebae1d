import { describe, expect, it } from 'vitest';
import { readRetry, readRetryDelay } from '@kabuto/client/read-retry';
import { queryClient } from './query-client';

/** The console's query client takes the shared retry of reads (packages/client/src/read-retry.test.ts). */
describe('the console’s query client', () => {
  it('retries reads with the backoff above and never repeats a decision', () => {
    const defaults = queryClient.getDefaultOptions();
    expect(defaults.queries?.retry).toBe(readRetry);
    expect(defaults.queries?.retryDelay).toBe(readRetryDelay);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
