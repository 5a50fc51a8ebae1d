import { type TConsoleUser } from '@kabuto/contract';
import { Table } from 'antd';
import { dateTimeText, yenText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { StatusTag } from '@/shared/status-tag';

export function DepositsTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  return (
    <Table
      rowKey="id"
      size="small"
      dataSource={user.deposits}
      columns={[
        { title: t('queue.id'), dataIndex: 'id', key: 'id' },
        {
          title: t('deposit.amount'),
          key: 'amount',
          align: 'right',
          render: (_, d) => yenText(d.amount, locale),
        },
        { title: t('deposit.transferDate'), dataIndex: 'transfer_date', key: 'date' },
        { title: t('queue.status'), key: 'status', render: (_, d) => <StatusTag status={d.status} /> },
        { title: t('queue.reason'), key: 'reason', render: (_, d) => d.reason ?? t('common.none') },
        { title: t('queue.submittedAt'), key: 'at', render: (_, d) => dateTimeText(d.created_at, locale) },
        {
          title: t('queue.reviewedAt'),
          key: 'reviewed',
          render: (_, d) => dateTimeText(d.reviewed_at, locale),
        },
      ]}
    />
  );
}
