import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Result, Space, Spin, Tabs, Typography } from 'antd';
import { useParams } from 'react-router';
import { useLocale } from '@/shared/locale';
import { userQuery } from './users-api';
import { AuditTab } from './user-detail/audit-tab';
import { BankTab } from './user-detail/bank-tab';
import { DepositsTab } from './user-detail/deposits-tab';
import { LedgerTab } from './user-detail/ledger-tab';
import { MessagesTab } from './user-detail/messages-tab';
import { OrdersTab } from './user-detail/orders-tab';
import { PositionsTab } from './user-detail/positions-tab';
import { ProfileTab } from './user-detail/profile-tab';
import { VerificationTab } from './user-detail/verification-tab';
import { WithdrawalsTab } from './user-detail/withdrawals-tab';

/** Everything about one user, read only: no control here changes a balance or a record. */
export function UserDetailPage() {
  const { t } = useLocale();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = useQuery({ ...userQuery(valid ? id : 0), enabled: valid });

  if (!valid) return <Result status="404" title="404" subTitle={t('common.notFound')} />;
  if (query.isPending) return <Spin aria-label={t('common.loading')} />;
  if (query.isError) {
    return (
      <Result
        status="error"
        title={query.error.message}
        extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  const user = query.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('user.title', { id: user.user_id })} · {user.phone}
        {user.full_name !== null && ` · ${user.full_name}`}
      </Typography.Title>
      <Alert type="info" showIcon message={t('user.readOnly')} />
      <Tabs
        items={[
          { key: 'profile', label: t('user.tabs.profile'), children: <ProfileTab user={user} /> },
          {
            key: 'verification',
            label: t('user.tabs.verification'),
            children: <VerificationTab user={user} />,
          },
          { key: 'bank', label: t('user.tabs.bankAccounts'), children: <BankTab user={user} /> },
          { key: 'deposits', label: t('user.tabs.deposits'), children: <DepositsTab user={user} /> },
          { key: 'withdrawals', label: t('user.tabs.withdrawals'), children: <WithdrawalsTab user={user} /> },
          { key: 'ledger', label: t('user.tabs.ledger'), children: <LedgerTab userId={user.user_id} /> },
          { key: 'orders', label: t('user.tabs.orders'), children: <OrdersTab userId={user.user_id} /> },
          {
            key: 'positions',
            label: t('user.tabs.positions'),
            children: <PositionsTab userId={user.user_id} />,
          },
          { key: 'messages', label: t('user.tabs.messages'), children: <MessagesTab user={user} /> },
          { key: 'audit', label: t('user.tabs.audit'), children: <AuditTab userId={user.user_id} /> },
        ]}
      />
    </Space>
  );
}
