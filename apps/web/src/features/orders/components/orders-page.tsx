import { sen, type TOrder, type TPosition } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Tabs } from 'antd-mobile';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/shared/navigation/router';
import { formatDate, formatDateTime, formatMoney, formatSignedMoney } from '@/shared/format/format';
import { formatChangeBp, formatPriceAuto, formatShares } from '@/shared/format/price';
import { navigateTo } from '@/shared/navigation/nav';
import { orderDetailUrl, type OrdersTab } from '@/shared/navigation/routes';
import { useLiveQuotes } from '@/shared/realtime/use-live-quotes';
import { useSession } from '@/shared/session/session';
import { positionFigures } from '@/domains/trading/order-figures';
import { closeReasons, isMarginTrade, orderStatusLabel, reasonLabel } from '@/domains/trading/order-labels';
import { ordersQuery, positionsQuery } from '@/domains/trading/trading-api';
import { EmptyState } from '@/shared/ui/empty-state';
import { IpoResults } from './ipo-results';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { useCancelOrder } from '../hooks/use-trading-actions';
import {
  accountLabel,
  orderKindLabel,
  plClass,
  positionKindLabel,
  priceTypeLabel,
  tradeTypeLabel,
} from '../labels';
import { ClosePositionSheet } from './close-position-sheet';
import { useState } from 'react';
import { useLocale } from '@/shared/i18n/use-locale';

/** /subPackages/order/order: holding, closed, pending and IPO results (specification §2). */
const TABS: readonly OrdersTab[] = ['holding', 'closed', 'pending', 'ipo'];

function isTab(value: string | null): value is OrdersTab {
  return value !== null && (TABS as readonly string[]).includes(value);
}

export function OrdersPage() {
  return (
    <RequireLogin>
      <OrdersTabs />
    </RequireLogin>
  );
}

function OrdersTabs() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: OrdersTab = isTab(raw) ? raw : 'holding';
  return (
    <div className="orders-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          setParams({ tab: key }, { replace: true });
        }}
      >
        <Tabs.Tab key="holding" title={t('orders.tabHolding')}>
          <HoldingList />
        </Tabs.Tab>
        <Tabs.Tab key="closed" title={t('orders.tabClosed')}>
          <ClosedList />
        </Tabs.Tab>
        <Tabs.Tab key="pending" title={t('orders.tabPending')}>
          <PendingList />
        </Tabs.Tab>
        <Tabs.Tab key="ipo" title={t('orders.tabIpo')}>
          <IpoResults />
        </Tabs.Tab>
      </Tabs>
    </div>
  );
}

function useIds() {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => (s.token === null ? null : s.userId));
  const locale = useLocale();
  return { token, userId, locale };
}

/** The opening order of each position, so that tapping a position opens its order. */
function useOpeningOrders(): ReadonlyMap<number, string> {
  const { token, userId } = useIds();
  const { data } = useQuery(ordersQuery(userId, token, 'all'));
  const map = new Map<number, string>();
  for (const order of data ?? []) {
    if (order.kind === 'open' && order.position_id !== null && !map.has(order.position_id)) {
      map.set(order.position_id, order.order_no);
    }
  }
  return map;
}

/** Why each position closed by rule (day trade before the close, margin call deadline), by position id. */
function useCloseReasons(): ReadonlyMap<number, string> {
  const { token, userId } = useIds();
  const { data } = useQuery(ordersQuery(userId, token, 'all'));
  return closeReasons(data ?? []);
}

function openOrder(orderNo: string | undefined) {
  if (orderNo !== undefined) navigateTo(orderDetailUrl(orderNo));
}

function HoldingList() {
  const { t } = useTranslation();
  const { token, userId } = useIds();
  const { data, isPending } = useQuery(positionsQuery(userId, token, 'holding'));
  const quotes = useLiveQuotes((data ?? []).map((p) => p.code));
  const openings = useOpeningOrders();
  const [closing, setClosing] = useState<TPosition | null>(null);
  if (isPending) return <PageLoading />;
  if (data === undefined || data.length === 0) return <EmptyState description={t('orders.holdingEmpty')} />;
  return (
    <>
      <ul className="trade-cards" data-testid="holding-list" aria-label={t('orders.tabHolding')}>
        {data.map((position) => (
          <HoldingCard
            key={position.id}
            position={position}
            livePrice={quotes.get(position.code)?.last ?? null}
            onOpen={() => {
              openOrder(openings.get(position.id));
            }}
            onClose={() => {
              setClosing(position);
            }}
          />
        ))}
      </ul>
      <ClosePositionSheet
        position={closing}
        onDone={() => {
          setClosing(null);
        }}
      />
    </>
  );
}

function Row({
  label,
  value,
  className,
  testId,
}: {
  label: string;
  value: string;
  className?: string;
  testId?: string;
}) {
  return (
    <div className="trade-card__item">
      <dt>{label}</dt>
      <dd className={className} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function CardHead({ code, name, tags }: { code: string; name: string; tags: string[] }) {
  return (
    <div className="trade-card__head">
      <div>
        <span className="trade-card__name">{name}</span> <span className="trade-card__code">{code}</span>
      </div>
      <div className="trade-card__tags">
        {tags.map((tag) => (
          <span key={tag} className="trade-tag">
            {tag}
          </span>
        ))}
      </div>
    </div>
  );
}

function HoldingCard({
  position,
  livePrice,
  onOpen,
  onClose,
}: {
  position: TPosition;
  livePrice: number | null;
  onOpen: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { locale } = useIds();
  const live =
    livePrice === null
      ? {
          lastPrice: position.last_price,
          marketValue: position.market_value,
          floatingPl: position.floating_pl,
          floatingPlBp: position.floating_pl_bp,
          maintenanceBp: position.maintenance_bp,
        }
      : positionFigures(position, livePrice);
  const available = position.quantity - position.closing_quantity;
  const margin = isMarginTrade(position);
  const tags = positionTags(t, position);
  return (
    <li className="trade-card" data-testid="holding-card" data-code={position.code}>
      <button type="button" className="trade-card__open" onClick={onOpen}>
        <CardHead code={position.code} name={position.name} tags={tags} />
        <dl className="trade-card__grid">
          <Row
            label={t('orders.sharesHeld')}
            value={formatShares(position.quantity, locale)}
            testId="holding-quantity"
          />
          {position.closing_quantity > 0 && (
            <Row
              label={t('orders.closingQuantity')}
              value={formatShares(position.closing_quantity, locale)}
            />
          )}
          <Row
            label={t(margin ? 'orders.buyTime' : 'ticket.boughtAt')}
            value={formatDateTime(position.opened_at, locale)}
          />
          <Row
            label={t(margin ? 'orders.buyPrice' : 'ticket.boughtPrice')}
            value={formatPriceAuto(position.avg_price, locale)}
          />
          {!margin && (
            <Row
              label={t('tax.bookValue')}
              value={formatMoney(position.book_value, locale)}
              testId="holding-book-value"
            />
          )}
          {position.repay_deadline !== null && (
            <Row
              label={t('tax.repayDeadline')}
              value={formatDate(position.repay_deadline, locale)}
              testId="holding-repay-deadline"
            />
          )}
          <Row
            label={t('orders.currentPrice')}
            value={formatPriceAuto(live.lastPrice, locale)}
            testId="holding-price"
          />
          <Row label={t('trading.marketValue')} value={formatMoney(sen(live.marketValue), locale)} />
          <Row
            label={t('orders.floatingPl')}
            value={`${formatSignedMoney(sen(live.floatingPl), locale)} (${formatChangeBp(live.floatingPlBp, locale)})`}
            className={plClass(live.floatingPl)}
            testId="holding-pl"
          />
          {margin && live.maintenanceBp !== null && (
            <Row
              label={t('orders.maintenance')}
              value={formatChangeBp(live.maintenanceBp, locale).replace(/^\+/, '')}
            />
          )}
        </dl>
      </button>
      {position.margin_call_deadline !== null && (
        <p className="margin-call-alert" role="alert" data-testid="margin-call-alert">
          {t('orders.marginCallWarning', {
            deadline: formatDateTime(position.margin_call_deadline, locale),
          })}
        </p>
      )}
      <div className="trade-card__actions">
        <Button size="small" color="primary" disabled={available <= 0} onClick={onClose}>
          {t(margin ? 'ticket.repay' : 'ticket.sell')}
        </Button>
      </div>
    </li>
  );
}

function ClosedList() {
  const { t } = useTranslation();
  const { token, userId, locale } = useIds();
  const { data, isPending } = useQuery(positionsQuery(userId, token, 'closed'));
  const openings = useOpeningOrders();
  const reasons = useCloseReasons();
  if (isPending) return <PageLoading />;
  if (data === undefined || data.length === 0) return <EmptyState description={t('orders.closedEmpty')} />;
  return (
    <ul className="trade-cards" data-testid="closed-list" aria-label={t('orders.tabClosed')}>
      {data.map((position) => (
        <li key={position.id} className="trade-card" data-testid="closed-card" data-code={position.code}>
          <button
            type="button"
            className="trade-card__open"
            onClick={() => {
              openOrder(openings.get(position.id));
            }}
          >
            <CardHead code={position.code} name={position.name} tags={positionTags(t, position)} />
            <dl className="trade-card__grid">
              <Row
                label={t('orders.shares')}
                value={formatShares(position.quantity, locale)}
                testId="closed-quantity"
              />
              <Row
                label={t(isMarginTrade(position) ? 'orders.buyTime' : 'ticket.boughtAt')}
                value={formatDateTime(position.opened_at, locale)}
              />
              <Row
                label={t(isMarginTrade(position) ? 'orders.buyPrice' : 'ticket.boughtPrice')}
                value={formatPriceAuto(position.avg_price, locale)}
              />
              <Row
                label={t(isMarginTrade(position) ? 'orders.sellTime' : 'ticket.soldAt')}
                value={position.closed_at === null ? '—' : formatDateTime(position.closed_at, locale)}
              />
              <Row
                label={t(isMarginTrade(position) ? 'orders.sellPrice' : 'ticket.soldPrice')}
                value={position.close_price === null ? '—' : formatPriceAuto(position.close_price, locale)}
              />
              <Row
                label={t('orders.realizedPl')}
                value={formatSignedMoney(position.realized_pl, locale)}
                className={plClass(position.realized_pl)}
                testId="closed-pl"
              />
            </dl>
            {reasons.has(position.id) && (
              <p className="trade-card__reason" data-testid="closed-reason">
                {reasonLabel(t, reasons.get(position.id) ?? null)}
              </p>
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}

function PendingList() {
  const { t } = useTranslation();
  const { token, userId } = useIds();
  const { data, isPending } = useQuery(ordersQuery(userId, token, 'pending'));
  const { cancel, busy } = useCancelOrder();
  if (isPending) return <PageLoading />;
  if (data === undefined || data.length === 0) return <EmptyState description={t('orders.pendingEmpty')} />;
  return (
    <ul className="trade-cards" data-testid="pending-list" aria-label={t('orders.tabPending')}>
      {data.map((order) => (
        <PendingCard
          key={order.order_no}
          order={order}
          busy={busy === order.order_no}
          onCancel={() => void cancel(order)}
        />
      ))}
    </ul>
  );
}

function PendingCard({ order, busy, onCancel }: { order: TOrder; busy: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  const { locale } = useIds();
  return (
    <li className="trade-card" data-testid="pending-card">
      <button
        type="button"
        className="trade-card__open"
        onClick={() => {
          openOrder(order.order_no);
        }}
      >
        <CardHead
          code={order.code}
          name={order.name}
          tags={[orderKindLabel(t, order), tradeTypeLabel(t, order), accountLabel(t, order.account)]}
        />
        <dl className="trade-card__grid">
          <Row label={t('orders.orderNo')} value={order.order_no} testId="pending-order-no" />
          <Row label={t('orders.statusLabel')} value={orderStatusLabel(t, order)} />
          <Row label={t('trading.priceType')} value={priceTypeLabel(t, order.price_type)} />
          <Row
            label={t('trading.price')}
            value={
              order.limit_price === null ? t('trading.market') : formatPriceAuto(order.limit_price, locale)
            }
          />
          <Row label={t('trading.quantity')} value={formatShares(order.quantity, locale)} />
          <Row label={t('orders.reserved')} value={formatMoney(order.reserved, locale)} />
          <Row label={t('orders.createdAt')} value={formatDateTime(order.created_at, locale)} />
          {order.fills_from !== null && (
            <Row label={t('orders.fillsFrom')} value={formatDateTime(order.fills_from, locale)} />
          )}
        </dl>
        {order.reason !== null && (
          <p className="trade-card__reason" data-testid="pending-reason">
            {reasonLabel(t, order.reason)}
          </p>
        )}
      </button>
      <div className="trade-card__actions">
        <Button size="small" color="danger" fill="outline" loading={busy} disabled={busy} onClick={onCancel}>
          {t('orders.cancel')}
        </Button>
      </div>
    </li>
  );
}

/** 現物 with its account (特定口座...), or 買建 / 売建 with 制度信用 / 一般信用 (and 日計り信用). */
function positionTags(t: TFunction, position: TPosition): string[] {
  return isMarginTrade(position)
    ? [positionKindLabel(t, position), tradeTypeLabel(t, position), accountLabel(t, position.account)]
    : [positionKindLabel(t, position), accountLabel(t, position.account)];
}
