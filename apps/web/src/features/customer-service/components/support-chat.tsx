import { SUPPORT_TEXT_MAX, ZSupportConversation, ZSupportMessage } from '@kabuto/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, TextArea } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/shared/api/client';
import { formatDateTime } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { subscribeUserEvents } from '@/shared/realtime/realtime';
import { useSession } from '@/shared/session/session';

const supportKey = (userId: number | null) => ['support', userId] as const;

/**
 * The in-app support conversation (ADR 0029): the user writes, staff answer from the console; a new
 * message arrives live on the user's channel (event `support_message`) and refreshes the conversation.
 */
export function SupportChat() {
  const { t } = useTranslation();
  const locale = useLocale();
  const userId = useSession((s) => (s.token === null ? null : s.userId));
  const client = useQueryClient();
  const [text, setText] = useState('');
  const query = useQuery({
    queryKey: supportKey(userId),
    queryFn: () => api.request({ path: '/support', schema: ZSupportConversation }),
    enabled: userId !== null,
  });
  useEffect(
    () =>
      subscribeUserEvents((event) => {
        if (event.kind === 'support_message') void client.invalidateQueries({ queryKey: supportKey(userId) });
      }),
    [client, userId],
  );
  const unread = query.data?.unread ?? 0;
  useEffect(() => {
    if (unread > 0) {
      void api
        .request({ method: 'POST', path: '/support/read', body: {}, schema: ZSupportConversation.pick({}) })
        .then(() => client.invalidateQueries({ queryKey: supportKey(userId) }));
    }
  }, [unread, client, userId]);
  const send = useMutation({
    mutationFn: (message: string) =>
      api.request({
        method: 'POST',
        path: '/support/messages',
        body: { text: message },
        schema: ZSupportMessage,
      }),
    onSuccess: () => {
      setText('');
      void client.invalidateQueries({ queryKey: supportKey(userId) });
    },
  });
  if (userId === null) return null;
  const messages = query.data?.messages ?? [];
  return (
    <section className="support-chat" aria-label={t('support.title')} data-testid="support-chat">
      <h2 className="section-title">
        {t('support.title')} {unread > 0 && <Badge content={unread} />}
      </h2>
      <p className="fraud-warning" role="note" data-testid="support-notice">
        {t('support.notice')}
      </p>
      {messages.length === 0 ? (
        <p className="support-chat__empty">{t('support.empty')}</p>
      ) : (
        <ol className="support-chat__messages" data-testid="support-messages" aria-live="polite">
          {messages.map((m) => (
            <li
              key={m.id}
              className={`support-chat__message support-chat__message--${m.from}`}
              data-from={m.from}
            >
              <span className="support-chat__who">
                {m.from === 'staff' ? t('support.staff') : t('support.you')}
              </span>
              <span className="support-chat__text">{m.text}</span>
              <time className="support-chat__time" dateTime={m.created_at}>
                {formatDateTime(m.created_at, locale)}
              </time>
            </li>
          ))}
        </ol>
      )}
      <form
        className="support-chat__form"
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim() !== '') send.mutate(text.trim());
        }}
      >
        <TextArea
          value={text}
          onChange={setText}
          maxLength={SUPPORT_TEXT_MAX}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={t('support.placeholder')}
          aria-label={t('support.placeholder')}
          data-testid="support-input"
        />
        <Button
          type="submit"
          color="primary"
          size="small"
          loading={send.isPending}
          disabled={text.trim() === ''}
        >
          {t('support.send')}
        </Button>
      </form>
    </section>
  );
}
