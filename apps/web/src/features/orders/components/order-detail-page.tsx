import type { Sen } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/shared/navigation/router';
import { formatDateTime, formatMoney } from '@/shared/format/format';
import { formatPriceAuto, formatShares } from '@/shared/format/price';
import { useSession } from '@/shared/session/session';
import { orderStatusLabel, reasonLabel } from '@/domains/trading/order-labels';
import { orderQuery } from '@/domains/trading/trading-api';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { useCancelOrder } from '../hooks/use-trading-actions';
import { accountLabel, orderKindLabel, priceTypeLabel, tradeTypeLabel } from '../labels';
import { useLocale } from '@/shared/i18n/use-locale';

/** /subPackages/jiaoyi/jiaoyiDetail/jiaoyiDetail?order_no=: every field of one order. */
export function OrderDetailPage() {
  return (
    <RequireLogin>
      <OrderDetail />
    </RequireLogin>
  );
}

function OrderDetail() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const orderNo = (params.get('order_no') ?? '').trim();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const locale = useLocale();
  const { data: order, isPending, isError } = useQuery(orderQuery(userId, token, orderNo));
  const { cancel, busy } = useCancelOrder();

  if (orderNo === '') return <EmptyState description={t('orders.notFound')} />;
  if (isPending) return <PageLoading />;
  if (isError) return <EmptyState description={t('orders.notFound')} />;

  const money = (v: Sen) => formatMoney(v, locale);
  const time = (v: string | null) => (v === null ? '—' : formatDateTime(v, locale));
  const rows: [string, string, string][] = [
    ['order-no', t('orders.orderNo'), order.order_no],
    ['status', t('orders.statusLabel'), orderStatusLabel(t, order)],
    ['stock', t('trading.stock'), `${order.name} (${order.code})`],
    ['venue', t('orders.venue'), t(order.venue === 'pts' ? 'orders.venuePts' : 'orders.venueExchange')],
    ['kind', t('orders.kind'), orderKindLabel(t, order)],
    ['side', t('orders.side'), t(order.side === 'buy' ? 'orders.sideBuy' : 'orders.sideSell')],
    ['account', t('ticket.accountLabel'), accountLabel(t, order.account)],
    ['price-type', t('trading.priceType'), priceTypeLabel(t, order.price_type)],
    [
      'limit-price',
      t('orders.limitPrice'),
      order.limit_price === null ? '—' : formatPriceAuto(order.limit_price, locale),
    ],
    [
      'fill-price',
      t('orders.fillPrice'),
      order.fill_price === null ? '—' : formatPriceAuto(order.fill_price, locale),
    ],
    ['quantity', t('trading.quantity'), formatShares(order.quantity, locale)],
    ['leverage', t('trading.leverage'), tradeTypeLabel(t, order)],
    ['principal', t('trading.principal'), money(order.principal)],
    ['fee', t('trading.fee'), money(order.fee)],
    ['total', t('trading.total'), money(order.total)],
    ['reserved', t('orders.reserved'), money(order.reserved)],
    ['created', t('orders.createdAt'), time(order.created_at)],
    ['filled', t('orders.filledAt'), time(order.filled_at)],
    ['cancelled', t('orders.cancelledAt'), time(order.cancelled_at)],
  ];
  if (order.fills_from !== null) rows.push(['fills-from', t('orders.fillsFrom'), time(order.fills_from)]);
  if (order.position_id !== null) rows.push(['position', t('orders.positionId'), String(order.position_id)]);
  const reason = reasonLabel(t, order.reason);
  if (reason !== null) rows.push(['reason', t('orders.reason'), reason]);

  return (
    <section className="order-detail" aria-label={t('titles.orderDetail')}>
      <dl className="detail-list">
        {rows.map(([id, label, value]) => (
          <div key={id} className="detail-list__row">
            <dt>{label}</dt>
            <dd data-testid={`order-${id}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {order.status === 'pending' && (
        <div className="order-detail__actions">
          <Button
            block
            color="danger"
            fill="outline"
            loading={busy === order.order_no}
            disabled={busy !== null}
            onClick={() => void cancel(order)}
          >
            {t('orders.cancel')}
          </Button>
        </div>
      )}
    </section>
  );
}
