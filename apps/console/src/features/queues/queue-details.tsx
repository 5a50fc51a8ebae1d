import { samePersonName } from '@kabuto/contract';
import { Alert, Col, Descriptions, Row, Steps, Typography } from 'antd';
import { AuthImage } from '@/shared/auth-image';
import { dateTimeText, yenText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { StatusTag } from '@/shared/status-tag';
import type { QueueItem } from './queue-api';

function Photo({ label, uploadId, alt }: { label: string; uploadId: string | null; alt: string }) {
  const { t } = useLocale();
  return (
    <figure style={{ margin: 0 }}>
      <figcaption>
        <Typography.Text strong>{label}</Typography.Text>
      </figcaption>
      {uploadId === null ? (
        <Typography.Text type="secondary">{t('bank.noImage')}</Typography.Text>
      ) : (
        <AuthImage uploadId={uploadId} alt={alt} />
      )}
    </figure>
  );
}

export function IdentityDetail({ item }: { item: QueueItem<'identity'> }) {
  const { t } = useLocale();
  return (
    <>
      <Descriptions bordered column={1} size="small">
        <Descriptions.Item label={t('queue.user')}>{item.user_id}</Descriptions.Item>
        <Descriptions.Item label={t('queue.phone')}>{item.phone}</Descriptions.Item>
        <Descriptions.Item label={t('identity.fullName')}>
          <Typography.Text strong>{item.full_name}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('identity.idNumber')}>
          <Typography.Text code>{item.id_number}</Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        {t('identity.enlarge')}
      </Typography.Paragraph>
      <Row gutter={16}>
        <Col span={12}>
          <Photo
            label={t('identity.front')}
            uploadId={item.front_upload_id}
            alt={t('identity.photoAlt', { side: t('identity.front'), user: item.user_id })}
          />
        </Col>
        <Col span={12}>
          <Photo
            label={t('identity.back')}
            uploadId={item.back_upload_id}
            alt={t('identity.photoAlt', { side: t('identity.back'), user: item.user_id })}
          />
        </Col>
      </Row>
    </>
  );
}

export function BankAccountDetail({ item }: { item: QueueItem<'bank-accounts'> }) {
  const { t } = useLocale();
  const verified = item.verified_name;
  const match = verified !== null && samePersonName(item.holder_name, verified);
  return (
    <>
      {verified === null ? (
        <Alert type="warning" showIcon message={t('bank.noVerifiedName')} style={{ marginBottom: 16 }} />
      ) : (
        <Alert
          type={match ? 'success' : 'error'}
          showIcon
          message={match ? t('bank.namesMatch') : t('bank.namesDiffer')}
          style={{ marginBottom: 16 }}
        />
      )}
      <Descriptions bordered column={1} size="small">
        <Descriptions.Item label={t('queue.user')}>{item.user_id}</Descriptions.Item>
        <Descriptions.Item label={t('queue.phone')}>{item.phone}</Descriptions.Item>
        <Descriptions.Item label={t('bank.holder')}>
          <Typography.Text strong>{item.holder_name}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('bank.verifiedName')}>
          <Typography.Text strong>{verified ?? t('common.none')}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('bank.bankName')}>{item.bank_name}</Descriptions.Item>
        <Descriptions.Item label={t('bank.branchName')}>
          {item.branch_name} ({item.branch_number})
        </Descriptions.Item>
        <Descriptions.Item label={t('bank.accountNumber')}>{item.account_number}</Descriptions.Item>
      </Descriptions>
      <div style={{ marginTop: 16, maxWidth: 360 }}>
        <Photo
          label={t('bank.image')}
          uploadId={item.image_upload_id}
          alt={`${t('bank.image')} (${item.user_id})`}
        />
      </div>
    </>
  );
}

export function DepositDetail({ item }: { item: QueueItem<'deposits'> }) {
  const { t, locale } = useLocale();
  return (
    <>
      <Descriptions bordered column={1} size="small">
        <Descriptions.Item label={t('queue.user')}>{item.user_id}</Descriptions.Item>
        <Descriptions.Item label={t('queue.phone')}>{item.phone}</Descriptions.Item>
        <Descriptions.Item label={t('deposit.amount')}>
          <Typography.Text strong>{yenText(item.amount, locale)}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('deposit.transferDate')}>{item.transfer_date}</Descriptions.Item>
        <Descriptions.Item label={t('deposit.virtualAccount')}>
          <Typography.Text code>{item.virtual_account_number}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('reconciliation.transfer')}>
          {item.transfer_id === null ? (
            <Typography.Text type="warning" data-testid="deposit-no-transfer">
              {t('reconciliation.noTransfer')}
            </Typography.Text>
          ) : (
            <Typography.Text data-testid="deposit-transfer">
              {t('reconciliation.matchedTransfer', { id: item.transfer_id })}
            </Typography.Text>
          )}
        </Descriptions.Item>
        {item.first_approved_by !== null && (
          <Descriptions.Item label={t('reconciliation.firstApproval')}>
            {item.first_approved_by} · {item.first_approved_at ?? ''}
          </Descriptions.Item>
        )}
      </Descriptions>
      <div style={{ marginTop: 16, maxWidth: 360 }}>
        {item.proof_upload_id === null ? (
          <Typography.Text type="secondary">{t('deposit.noProof')}</Typography.Text>
        ) : (
          <Photo
            label={t('deposit.proof')}
            uploadId={item.proof_upload_id}
            alt={`${t('deposit.proof')} (${item.user_id})`}
          />
        )}
      </div>
    </>
  );
}

export function WithdrawalDetail({ item }: { item: QueueItem<'withdrawals'> }) {
  const { t, locale } = useLocale();
  const decided = item.status !== 'pending';
  const first = item.first_approved_by;
  const steps = item.needs_second_approval
    ? [
        {
          title:
            first === null
              ? t('withdrawal.noApprovalYet')
              : t('withdrawal.firstApproval', {
                  name: first,
                  at: dateTimeText(item.first_approved_at, locale),
                }),
          status: first === null ? ('wait' as const) : ('finish' as const),
        },
        {
          title: decided
            ? t('withdrawal.finalDecision', {
                name: item.reviewed_by ?? t('common.none'),
                at: dateTimeText(item.reviewed_at, locale),
              })
            : t('status.awaiting_second_approval'),
          status: decided
            ? item.status === 'rejected'
              ? ('error' as const)
              : ('finish' as const)
            : ('wait' as const),
        },
      ]
    : [
        {
          title: decided
            ? t('withdrawal.finalDecision', {
                name: item.reviewed_by ?? t('common.none'),
                at: dateTimeText(item.reviewed_at, locale),
              })
            : t('withdrawal.noApprovalYet'),
          status: decided
            ? item.status === 'rejected'
              ? ('error' as const)
              : ('finish' as const)
            : ('wait' as const),
        },
      ];
  return (
    <>
      {item.bank_account_status !== 'approved' && (
        <Alert type="error" showIcon message={t('withdrawal.bankNotApproved')} style={{ marginBottom: 16 }} />
      )}
      <Descriptions bordered column={1} size="small">
        <Descriptions.Item label={t('queue.user')}>{item.user_id}</Descriptions.Item>
        <Descriptions.Item label={t('queue.phone')}>{item.phone}</Descriptions.Item>
        <Descriptions.Item label={t('withdrawal.amount')}>
          <Typography.Text strong>{yenText(item.amount, locale)}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('withdrawal.bankAccount')}>
          {item.bank_account.bank_name} {item.bank_account.branch_name} {item.bank_account.account_number}
        </Descriptions.Item>
        <Descriptions.Item label={t('withdrawal.holder')}>{item.holder_name}</Descriptions.Item>
        <Descriptions.Item label={t('withdrawal.bankStatus')}>
          <StatusTag status={item.bank_account_status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('withdrawal.processAfter')}>
          {dateTimeText(item.process_after, locale)}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={3} style={{ fontSize: 16, marginTop: 24 }}>
        {t('withdrawal.chain')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {item.needs_second_approval ? t('withdrawal.needsSecond') : t('withdrawal.oneApproval')}
      </Typography.Paragraph>
      <Steps direction="vertical" size="small" items={steps} />
    </>
  );
}
