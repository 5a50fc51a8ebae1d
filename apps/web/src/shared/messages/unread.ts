import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSession } from '../session/session';

/**
 * The unread count the tab bar shows, apart from the rest of the messages' API (messages-api.ts): the tab bar
 * is in the app's first load, and this module imports no schema, so the request and its schema are loaded
 * only when the count is fetched (issue 21).
 */
export const messageKeys = {
  all: ['messages'] as const,
  unread: (userId: number | null) => [...messageKeys.all, 'unread', userId] as const,
  list: (userId: number | null) => [...messageKeys.all, 'list', userId] as const,
};

export function unreadCountQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: messageKeys.unread(userId),
    queryFn: () => import('./unread-fetch').then((m) => m.fetchUnreadCount()),
    enabled: token !== null && userId !== null,
    staleTime: 30_000,
  });
}

/** The unread count of the logged-in user (0 when logged out or not known yet). */
export function useUnreadCount(): number {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data } = useQuery(unreadCountQuery(userId, token));
  return token === null ? 0 : (data?.unread ?? 0);
}
