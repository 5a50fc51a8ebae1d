import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { isTransient } from './query-client';

/** Whether a query on screen last failed for a passing reason (and has not succeeded since). */
function waitsForServer(query: Query): boolean {
  return (
    query.getObserversCount() > 0 &&
    query.state.fetchFailureCount > 0 &&
    isTransient(query.state.fetchFailureReason)
  );
}

export function isReconnecting(client: QueryClient): boolean {
  return client.getQueryCache().getAll().some(waitsForServer);
}

/**
 * True while a read the screen shows cannot reach the server (no answer, or 503 with Retry-After while the
 * server's database is unreachable) and is being retried; false again at the first success (ADR 0034).
 */
export function useReconnecting(): boolean {
  const client = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => client.getQueryCache().subscribe(onChange),
    [client],
  );
  return useSyncExternalStore(subscribe, () => isReconnecting(client));
}
