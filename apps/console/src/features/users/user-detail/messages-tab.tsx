import { type TConsoleUser, type TMessage } from '@kabuto/contract';
import { Table, Tag } from 'antd';
import { dateTimeText, yenText } from '@/shared/format';
import { tContract } from '@/shared/i18n';
import { useLocale } from '@/shared/locale';

type Locale = ReturnType<typeof useLocale>['locale'];

const MONEY_PARAMS = new Set(['amount', 'price', 'needed', 'available', 'min', 'm']);
const TIME_PARAMS = new Set(['process_after', 'deadline', 'until']);

/** A message as the user reads it: its kind's catalogue text with the params filled in. */
function messageText(message: TMessage, locale: Locale): string {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(message.params)) {
    if (MONEY_PARAMS.has(key) && typeof value === 'number' && Number.isSafeInteger(value)) {
      params[key] = yenText(value, locale);
    } else if (TIME_PARAMS.has(key) && typeof value === 'string') {
      params[key] = dateTimeText(value, locale);
    } else {
      params[key] =
        typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
    }
  }
  const key = `messageKinds.${message.kind}`;
  const text = tContract(key, params);
  const base = text === key ? message.kind : text;
  return typeof message.params.reason === 'string' ? `${base} (${message.params.reason})` : base;
}

export function MessagesTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  return (
    <Table<TMessage>
      rowKey="id"
      size="small"
      dataSource={user.messages}
      columns={[
        { title: t('user.at'), key: 'at', width: 170, render: (_, m) => dateTimeText(m.created_at, locale) },
        { title: t('user.messageText'), key: 'text', render: (_, m) => messageText(m, locale) },
        {
          title: t('user.read'),
          key: 'read',
          width: 100,
          render: (_, m) => (m.read ? t('user.read') : <Tag color="gold">{t('user.unread')}</Tag>),
        },
      ]}
    />
  );
}
