import { type TOrder } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { dateTimeText, yenText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { orderTradeText } from '@/shared/trade-labels';
import { ordersQuery } from '../users-api';

type TFn = ReturnType<typeof useLocale>['t'];
type Locale = ReturnType<typeof useLocale>['locale'];

function orderColumns(t: TFn, locale: Locale): ColumnsType<TOrder> {
  return [
    { title: t('orders.orderNo'), dataIndex: 'order_no', key: 'no' },
    { title: t('orders.stock'), key: 'stock', render: (_, o) => `${o.code} ${o.name}` },
    {
      title: t('ticket.tradeColumn'),
      key: 'side',
      render: (_, o) => orderTradeText(t, o),
    },
    { title: t('ticket.accountColumn'), key: 'account', render: (_, o) => t(`ticket.account.${o.account}`) },
    { title: t('orders.priceType'), key: 'type', render: (_, o) => t(`orders.priceTypes.${o.price_type}`) },
    { title: t('orders.venue'), key: 'venue', render: (_, o) => t(`orders.venues.${o.venue}`) },
    { title: t('orders.quantity'), dataIndex: 'quantity', key: 'qty', align: 'right' },
    {
      title: t('orders.limitPrice'),
      key: 'limit',
      align: 'right',
      render: (_, o) => (o.limit_price === null ? t('common.none') : yenText(o.limit_price, locale)),
    },
    {
      title: t('orders.fillPrice'),
      key: 'fill',
      align: 'right',
      render: (_, o) => (o.fill_price === null ? t('common.none') : yenText(o.fill_price, locale)),
    },
    { title: t('orders.total'), key: 'total', align: 'right', render: (_, o) => yenText(o.total, locale) },
    {
      title: t('queue.status'),
      key: 'status',
      render: (_, o) => <Tag>{t(`orders.statuses.${o.status}`)}</Tag>,
    },
    { title: t('orders.createdAt'), key: 'at', render: (_, o) => dateTimeText(o.created_at, locale) },
  ];
}

export function OrdersTab({ userId }: { userId: number }) {
  const { t, locale } = useLocale();
  const query = useQuery(ordersQuery(userId));
  return (
    <Table<TOrder>
      rowKey="order_no"
      size="small"
      loading={query.isFetching}
      dataSource={query.data ?? []}
      columns={orderColumns(t, locale)}
    />
  );
}
