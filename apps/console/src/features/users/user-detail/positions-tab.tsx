import { type TPosition } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Segmented, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { dateTimeText, yenText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { positionKindText } from '@/shared/trade-labels';
import { positionsQuery } from '../users-api';

export function PositionsTab({ userId }: { userId: number }) {
  const { t, locale } = useLocale();
  const [status, setStatus] = useState<'holding' | 'closed'>('holding');
  const query = useQuery(positionsQuery(userId, status));
  const columns: ColumnsType<TPosition> = [
    { title: t('positions.stock'), key: 'stock', render: (_, p) => `${p.code} ${p.name}` },
    {
      title: t('positions.direction'),
      key: 'direction',
      render: (_, p) => positionKindText(t, p),
    },
    { title: t('ticket.accountColumn'), key: 'account', render: (_, p) => t(`ticket.account.${p.account}`) },
    { title: t('positions.quantity'), dataIndex: 'quantity', key: 'qty', align: 'right' },
    {
      title: t('positions.avgPrice'),
      key: 'avg',
      align: 'right',
      render: (_, p) => yenText(p.avg_price, locale),
    },
    {
      title: t('positions.lastPrice'),
      key: 'last',
      align: 'right',
      render: (_, p) => yenText(p.last_price, locale),
    },
    {
      title: t('positions.marketValue'),
      key: 'mv',
      align: 'right',
      render: (_, p) => yenText(p.market_value, locale),
    },
    {
      title: t('positions.floatingPl'),
      key: 'fpl',
      align: 'right',
      render: (_, p) => yenText(p.floating_pl, locale),
    },
    {
      title: t('positions.realizedPl'),
      key: 'rpl',
      align: 'right',
      render: (_, p) => yenText(p.realized_pl, locale),
    },
    {
      title: t('queue.status'),
      key: 'status',
      render: (_, p) => <Tag>{t(`positions.statuses.${p.status}`)}</Tag>,
    },
    { title: t('positions.openedAt'), key: 'opened', render: (_, p) => dateTimeText(p.opened_at, locale) },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Segmented
        aria-label={t('positions.show')}
        value={status}
        onChange={(v) => {
          setStatus(v === 'closed' ? 'closed' : 'holding');
        }}
        options={[
          { value: 'holding', label: t('positions.holding') },
          { value: 'closed', label: t('positions.closed') },
        ]}
      />
      <Table<TPosition>
        rowKey="id"
        size="small"
        loading={query.isFetching}
        dataSource={query.data ?? []}
        columns={columns}
      />
    </Space>
  );
}
