import type { TReviewStatus } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Drawer,
  Form,
  InputNumber,
  Result,
  Select,
  Space,
  Spin,
  Table,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { dateTimeText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { StatusTag } from '@/shared/status-tag';
import { queueItemQuery, queueQuery, type QueueItem, type QueueKind } from './queue-api';
import { QUEUES, type QueueDescription } from './queues';
import { ReviewActions, type Outcome } from './review-actions';

const OUTCOME_TEXT = {
  pending: 'status.pending',
  approved: 'review.approved',
  passed: 'review.approved',
  rejected: 'review.rejected',
  awaiting_second_approval: 'review.awaitingSecond',
} as const satisfies Record<Outcome, string>;

function ReviewDrawer<K extends QueueKind>({
  kind,
  queue,
  id,
  onClose,
}: {
  kind: K;
  queue: QueueDescription<K>;
  id: number;
  onClose: () => void;
}) {
  const { t, locale } = useLocale();
  const item = useQuery(queueItemQuery(kind, id));
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const title = t('queue.detailTitle', { queue: t(queue.title), id });
  const data = item.data;
  // A deposit no bank transfer matched takes a reason and two operators (ADR 0023).
  const unmatchedDeposit = data !== undefined && 'transfer_id' in data && data.transfer_id === null;
  const secondApproval =
    data !== undefined &&
    (('needs_second_approval' in data && data.needs_second_approval) || unmatchedDeposit) &&
    'first_approved_by' in data &&
    data.first_approved_by !== null;
  return (
    <Drawer open title={title} width={720} onClose={onClose} aria-label={title} destroyOnHidden>
      {item.isPending && <Spin aria-label={t('common.loading')} />}
      {item.isError && <Alert type="error" showIcon message={item.error.message} />}
      {data !== undefined && (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Space wrap>
            <StatusTag status={data.status} />
            <Typography.Text type="secondary">
              {t('queue.submittedAt')}: {dateTimeText(data.created_at, locale)}
            </Typography.Text>
          </Space>
          {outcome !== null && (
            <Alert
              role="status"
              type={
                outcome === 'rejected'
                  ? 'warning'
                  : outcome === 'awaiting_second_approval'
                    ? 'info'
                    : 'success'
              }
              showIcon
              message={t(OUTCOME_TEXT[outcome])}
            />
          )}
          <queue.Detail item={data} />
          {data.status === 'pending' ? (
            <Card size="small" title={t('review.decision')}>
              <ReviewActions
                kind={kind}
                id={id}
                secondApproval={secondApproval}
                firstApprover={'first_approved_by' in data ? data.first_approved_by : null}
                approvalReason={unmatchedDeposit}
                onDecided={setOutcome}
              />
            </Card>
          ) : (
            <Card size="small" title={t('review.decision')}>
              <Space direction="vertical">
                <Typography.Text>{t('review.reviewedNote')}</Typography.Text>
                <Typography.Text>
                  {t('queue.reviewedBy')}: {data.reviewed_by ?? t('common.none')} ·{' '}
                  {dateTimeText('reviewed_at' in data ? data.reviewed_at : null, locale)}
                </Typography.Text>
                {data.reason !== null && (
                  <Typography.Text>
                    {t('queue.reason')}: {data.reason}
                  </Typography.Text>
                )}
              </Space>
            </Card>
          )}
        </Space>
      )}
    </Drawer>
  );
}

const PAGE_SIZE = 20;

/** One review queue: filters (status, user), a paged table, and the review drawer of the chosen row. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- K ties the queue's description to its items' type (QUEUES[kind] is then QueueDescription<K>); with the union the columns would not type-check
export function QueuePage<K extends QueueKind>({ kind }: { kind: K }) {
  const { t, locale } = useLocale();
  const queue: QueueDescription<K> = QUEUES[kind];
  const [params, setParams] = useSearchParams();
  const statusParam = params.get('status');
  const status: TReviewStatus | undefined =
    statusParam === 'all'
      ? undefined
      : statusParam === 'approved' || statusParam === 'rejected'
        ? statusParam
        : 'pending';
  const userParam = Number(params.get('user') ?? '');
  const userId = Number.isSafeInteger(userParam) && userParam > 0 ? userParam : undefined;
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const reviewParam = Number(params.get('review') ?? '');
  const reviewing = Number.isSafeInteger(reviewParam) && reviewParam > 0 ? reviewParam : null;

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setParams(next);
  };

  const list = useQuery(
    queueQuery(kind, { status, user_id: userId, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
  );

  const columns: ColumnsType<QueueItem<K>> = [
    { title: t('queue.id'), dataIndex: 'id', key: 'id', width: 80 },
    { title: t('queue.user'), dataIndex: 'user_id', key: 'user_id', width: 90 },
    { title: t('queue.phone'), dataIndex: 'phone', key: 'phone' },
    ...queue.columns(t, locale),
    {
      title: t('queue.submittedAt'),
      key: 'created_at',
      render: (_, r) => dateTimeText(r.created_at, locale),
    },
    { title: t('queue.status'), key: 'status', render: (_, r) => <StatusTag status={r.status} /> },
    { title: t('queue.reviewedBy'), key: 'reviewed_by', render: (_, r) => r.reviewed_by ?? t('common.none') },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, r) => (
        <Button
          size="small"
          onClick={() => {
            update({ review: String(r.id) });
          }}
        >
          {t('queue.review')}
        </Button>
      ),
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t(queue.title)}
      </Typography.Title>
      <Form layout="inline" name={`queue-${kind}`}>
        <Form.Item label={t('queue.statusFilter')} htmlFor={`queue-${kind}-status`}>
          <Select
            id={`queue-${kind}-status`}
            style={{ width: 160 }}
            value={status ?? 'all'}
            onChange={(value: string) => {
              update({ status: value, page: null });
            }}
            options={[
              { value: 'pending', label: t('status.pending') },
              { value: 'approved', label: t(queue.approvedLabel) },
              { value: 'rejected', label: t('status.rejected') },
              { value: 'all', label: t('common.all') },
            ]}
          />
        </Form.Item>
        <Form.Item label={t('queue.userFilter')} htmlFor={`queue-${kind}-user`}>
          <InputNumber
            id={`queue-${kind}-user`}
            min={1}
            precision={0}
            placeholder={t('queue.userFilterPlaceholder')}
            style={{ width: 180 }}
            value={userId ?? null}
            onChange={(value) => {
              update({ user: value === null ? null : String(value), page: null });
            }}
          />
        </Form.Item>
      </Form>
      {list.isError ? (
        <Result
          status="error"
          title={list.error.message}
          extra={<Button onClick={() => void list.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<QueueItem<K>>
          rowKey="id"
          size="middle"
          loading={list.isPending}
          dataSource={list.data?.items ?? []}
          columns={columns}
          onRow={(r) => ({
            onDoubleClick: () => {
              update({ review: String(r.id) });
            },
          })}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: list.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => t('common.total', { count: total }),
            onChange: (p) => {
              update({ page: String(p) });
            },
          }}
        />
      )}
      {reviewing !== null && (
        <ReviewDrawer
          key={`${kind}-${reviewing}`}
          kind={kind}
          queue={queue}
          id={reviewing}
          onClose={() => {
            update({ review: null });
          }}
        />
      )}
    </Space>
  );
}
