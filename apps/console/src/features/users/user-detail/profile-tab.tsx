import { type TConsoleUser } from '@kabuto/contract';
import { Card, Col, Descriptions, Row, Space, Statistic } from 'antd';
import { dateTimeText, yenText } from '@/shared/format';
import { tContract } from '@/shared/i18n';
import { useLocale } from '@/shared/locale';
import { StatusTag } from '@/shared/status-tag';

export function ProfileTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  const balances = ['cash', 'reserved', 'margin', 'withdrawing'] as const;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions bordered size="small" column={2}>
        <Descriptions.Item label={t('users.userId')}>{user.user_id}</Descriptions.Item>
        <Descriptions.Item label={t('users.phone')}>{user.phone}</Descriptions.Item>
        <Descriptions.Item label={t('users.fullName')}>
          {user.full_name ?? t('common.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('users.realName')}>
          <StatusTag status={user.real_name_status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('user.invitationCode')}>{user.invitation_code}</Descriptions.Item>
        <Descriptions.Item label={t('user.invitedBy')}>{user.invited_by_code}</Descriptions.Item>
        <Descriptions.Item label={t('users.createdAt')}>
          {dateTimeText(user.created_at, locale)}
        </Descriptions.Item>
        <Descriptions.Item label={t('user.lockedUntil')}>
          {user.locked_until === null ? t('user.notLocked') : dateTimeText(user.locked_until, locale)}
        </Descriptions.Item>
      </Descriptions>
      <Card title={t('user.balances')} size="small">
        <Row gutter={16}>
          {balances.map((account) => (
            <Col span={6} key={account}>
              <Statistic
                title={tContract(`accounts.${account}`)}
                value={yenText(user.balances[account], locale)}
              />
            </Col>
          ))}
        </Row>
      </Card>
    </Space>
  );
}
