import { type TMessage } from '@kabuto/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Badge, Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formattersFor } from '@/shared/format/format';
import { tContract } from '@/shared/i18n/i18n';
import {
  fetchMessages,
  markMessagesRead,
  messageKeys,
  MESSAGES_PAGE_SIZE,
} from '@/shared/messages/messages-api';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { messageReason, messageText } from '../message-text';
import { useLocale } from '@/shared/i18n/use-locale';

/**
 * /subPackages/message/message: every review outcome, fill, margin call and withdrawal change, newest
 * first; new ones arrive live (the user channel refreshes this list). Tap one to mark it read, or all.
 */
export function MessagePage() {
  return (
    <RequireLogin>
      <Messages />
    </RequireLogin>
  );
}

function Messages() {
  const { t } = useTranslation();
  const userId = useSession((s) => s.userId);
  const client = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: messageKeys.list(userId),
    queryFn: ({ pageParam }) => fetchMessages(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return loaded < last.total && last.items.length === MESSAGES_PAGE_SIZE ? loaded : undefined;
    },
  });
  const markRead = useMutation({
    mutationFn: markMessagesRead,
    onSuccess: (answer) => {
      client.setQueryData(messageKeys.unread(userId), answer);
      void client.invalidateQueries({ queryKey: messageKeys.list(userId) });
    },
  });
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = query.data?.pages[0]?.unread ?? 0;

  if (query.isPending) return <PageLoading />;
  return (
    <div className="funds-page">
      <div className="messages-head">
        <span data-testid="messages-unread">{t('messages.unreadCount', { n: unread })}</span>
        <Button
          size="small"
          color="primary"
          fill="outline"
          disabled={unread === 0}
          loading={markRead.isPending}
          onClick={() => {
            markRead.mutate({ all: true });
          }}
        >
          {t('messages.markAllRead')}
        </Button>
      </div>
      {items.length === 0 ? (
        <EmptyState description={t('messages.empty')} />
      ) : (
        <ol className="funds-list" data-testid="messages" aria-label={t('titles.message')}>
          {items.map((m) => (
            <MessageRow
              key={m.id}
              message={m}
              onRead={() => {
                if (!m.read) markRead.mutate({ ids: [m.id] });
              }}
            />
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <Button
          block
          fill="none"
          loading={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {t('messages.loadMore')}
        </Button>
      )}
    </div>
  );
}

function MessageRow({ message, onRead }: { message: TMessage; onRead: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const reason = messageReason(message);
  return (
    <li
      className={`funds-card message${message.read ? '' : ' message--unread'}`}
      data-testid="message"
      data-kind={message.kind}
      data-read={message.read}
    >
      <button type="button" className="message__button" onClick={onRead}>
        <div className="funds-card__head">
          <time dateTime={message.created_at}>{formatDateTime(message.created_at, locale)}</time>
          {!message.read && <Badge content={t('messages.unread')} />}
        </div>
        <p className="message__text">{messageText(message, formattersFor(locale), tContract)}</p>
        {reason !== null && (
          <p className="funds-reason">
            <strong>{t('funds.reason')}:</strong> {reason}
          </p>
        )}
      </button>
    </li>
  );
}
