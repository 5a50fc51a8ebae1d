import { ZMessagePage, ZUnreadCount, type TUserEvent } from '@kabuto/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api/client';
import { subscribeUserEvents } from '../realtime/realtime';
import { useSession } from '../session/session';
import { userInfoKeys } from '../session/user-info-query';
import { messageKeys } from './unread';

export { messageKeys, unreadCountQuery, useUnreadCount } from './unread';

/**
 * The user's messages (GET /api/messages, POST /api/messages/read) and their live updates; the unread count
 * (GET /api/messages/unread-count), which the tab bar shows from the first load, is in unread.ts.
 */

/** The query-key prefix of the funds pages (identity, bank accounts, deposits, withdrawals). */
export const FUNDS_KEY = 'funds';

export const MESSAGES_PAGE_SIZE = 30;

export function fetchMessages(offset: number) {
  return api.request({
    path: '/messages',
    query: { limit: MESSAGES_PAGE_SIZE, offset },
    schema: ZMessagePage,
  });
}

export function markMessagesRead(body: { ids: number[] } | { all: true }) {
  return api.request({ method: 'POST', path: '/messages/read', body, schema: ZUnreadCount });
}

const FUNDS_KINDS = /^(identity|bank_account|deposit|withdrawal)\./;

/** What a user event changes: the messages always (every event carries one), and the funds pages. */
export function refreshForEvent(client: QueryClient, event: TUserEvent): Promise<unknown> {
  const work: Promise<unknown>[] = [client.invalidateQueries({ queryKey: messageKeys.all })];
  if (FUNDS_KINDS.test(event.kind)) {
    work.push(client.invalidateQueries({ queryKey: [FUNDS_KEY] }));
    work.push(client.invalidateQueries({ queryKey: userInfoKeys.all }));
  }
  return Promise.all(work);
}

/**
 * While logged in: every event pushed on the user channel refreshes the messages and what it changed, and so
 * does each moment the events start arriving (after a connection or a login: what came before is not replayed).
 */
export function useMessageEvents(): void {
  const token = useSession((s) => s.token);
  const client = useQueryClient();
  useEffect(() => {
    if (token === null) return;
    return subscribeUserEvents(
      (event) => {
        void refreshForEvent(client, event);
      },
      () => {
        void client.invalidateQueries({ queryKey: messageKeys.all });
      },
    );
  }, [token, client]);
}
