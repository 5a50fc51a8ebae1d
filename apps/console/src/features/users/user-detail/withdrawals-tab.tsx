import { type TConsoleUser } from '@kabuto/contract';
import { Table } from 'antd';
import { dateTimeText, yenText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { StatusTag } from '@/shared/status-tag';

export function WithdrawalsTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  return (
    <Table
      rowKey="id"
      size="small"
      dataSource={user.withdrawals}
      columns={[
        { title: t('queue.id'), dataIndex: 'id', key: 'id' },
        {
          title: t('withdrawal.amount'),
          key: 'amount',
          align: 'right',
          render: (_, w) => yenText(w.amount, locale),
        },
        {
          title: t('withdrawal.bankAccount'),
          key: 'bank',
          render: (_, w) =>
            `${w.bank_account.bank_name} ${w.bank_account.branch_name} ${w.bank_account.account_number}`,
        },
        { title: t('queue.status'), key: 'status', render: (_, w) => <StatusTag status={w.status} /> },
        {
          title: t('withdrawal.processAfter'),
          key: 'after',
          render: (_, w) => dateTimeText(w.process_after, locale),
        },
        { title: t('queue.reason'), key: 'reason', render: (_, w) => w.reason ?? t('common.none') },
      ]}
    />
  );
}
