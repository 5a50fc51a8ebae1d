import { type TConsoleUser } from '@kabuto/contract';
import { Col, Descriptions, Empty, Row, Space, Typography } from 'antd';
import { AuthImage } from '@/shared/auth-image';
import { dateTimeText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { StatusTag } from '@/shared/status-tag';

export function VerificationTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  const identity = user.identity;
  if (identity === null) return <Empty description={t('user.notSubmitted')} />;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Descriptions bordered size="small" column={2}>
        <Descriptions.Item label={t('identity.fullName')}>{identity.full_name}</Descriptions.Item>
        <Descriptions.Item label={t('identity.idNumber')}>{identity.id_number}</Descriptions.Item>
        <Descriptions.Item label={t('queue.status')}>
          <StatusTag status={identity.status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('queue.submittedAt')}>
          {dateTimeText(identity.created_at, locale)}
        </Descriptions.Item>
        <Descriptions.Item label={t('queue.reviewedBy')}>
          {identity.reviewed_by ?? t('common.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('queue.reason')}>{identity.reason ?? t('common.none')}</Descriptions.Item>
      </Descriptions>
      <Row gutter={16}>
        <Col span={12}>
          <Typography.Text strong>{t('identity.front')}</Typography.Text>
          <AuthImage
            uploadId={identity.front_upload_id}
            alt={t('identity.photoAlt', { side: t('identity.front'), user: user.user_id })}
          />
        </Col>
        <Col span={12}>
          <Typography.Text strong>{t('identity.back')}</Typography.Text>
          <AuthImage
            uploadId={identity.back_upload_id}
            alt={t('identity.photoAlt', { side: t('identity.back'), user: user.user_id })}
          />
        </Col>
      </Row>
    </Space>
  );
}
