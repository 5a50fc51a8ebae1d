import { type TConsoleUser } from '@kabuto/contract';
import { Space, Table, Typography } from 'antd';
import { dateTimeText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { StatusTag } from '@/shared/status-tag';

export function BankTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={user.bank_accounts}
        columns={[
          { title: t('queue.id'), dataIndex: 'id', key: 'id' },
          { title: t('bank.holder'), dataIndex: 'holder_name', key: 'holder' },
          { title: t('bank.bankName'), dataIndex: 'bank_name', key: 'bank' },
          {
            title: t('bank.branchName'),
            key: 'branch',
            render: (_, b) => `${b.branch_name} (${b.branch_number})`,
          },
          { title: t('bank.accountNumber'), dataIndex: 'account_number', key: 'number' },
          { title: t('queue.status'), key: 'status', render: (_, b) => <StatusTag status={b.status} /> },
          { title: t('queue.reason'), key: 'reason', render: (_, b) => b.reason ?? t('common.none') },
          { title: t('queue.submittedAt'), key: 'at', render: (_, b) => dateTimeText(b.created_at, locale) },
        ]}
      />
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t('user.bankLog')}
      </Typography.Title>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={user.bank_account_log}
        columns={[
          { title: t('user.at'), key: 'at', render: (_, l) => dateTimeText(l.at, locale) },
          { title: t('bank.logAction'), key: 'action', render: (_, l) => t(`bank.logActions.${l.action}`) },
          { title: t('bank.holder'), dataIndex: 'holder_name', key: 'holder' },
          { title: t('bank.bankName'), key: 'bank', render: (_, l) => `${l.bank_name} ${l.branch_name}` },
          { title: t('bank.accountNumber'), dataIndex: 'account_number', key: 'number' },
          { title: t('queue.reason'), key: 'reason', render: (_, l) => l.reason ?? t('common.none') },
        ]}
      />
    </Space>
  );
}
