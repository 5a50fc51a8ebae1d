import type { TOrder, TStockRow, TTradingRules } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '@/shared/format/format';
import { formatPriceAuto, formatShares } from '@/shared/format/price';
import { marketListQuery } from '@/domains/market/market-api';
import { marketStatusQuery } from '@/shared/market-clock/market-status';
import { SimulatedBadge } from '@/domains/market/simulated-badge';
import { StockList } from '@/domains/market/stock-list';
import { useViewer } from '@/domains/market/viewer';
import { navigateTo } from '@/shared/navigation/nav';
import { orderDetailUrl } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { useUserInfo } from '@/shared/session/user-info-query';
import {
  OrderTicketForm,
  FeeScheduleNote,
  useTicketDialogs,
} from '@/domains/trading/order-ticket/order-ticket-view';
import { useOrderTicket } from '@/domains/trading/order-ticket/use-order-ticket';
import { orderStatusLabel, reasonLabel } from '@/domains/trading/order-labels';
import { TradeCardGrid, TradeCardHead, type TradeCardRow } from '@/domains/trading/trade-card';
import { ordersQuery, rulesQuery } from '@/domains/trading/trading-api';
import { useCancelOrder } from '@/domains/trading/use-cancel-order';
import { EmptyState } from '@/shared/ui/empty-state';
import { LoginPrompt } from '@/shared/ui/login-prompt';
import { PageLoading } from '@/shared/ui/page-loading';
import { useLocale } from '@/shared/i18n/use-locale';

/**
 * /subPackages/index/pts/pts: the PTS (pre-market) screen. The session banner (8:20-16:00 on business
 * days), the rule in plain words, the stock list (tap a stock to apply: the shared order ticket with the
 * venue fixed to PTS, a cash buy) and the application list with cancel for waiting applications.
 */
const STOCK_LIMIT = 20;

export function PtsPage() {
  const { t } = useTranslation();
  const { loggedIn } = useUserInfo();
  const [picked, setPicked] = useState<string | null>(null);
  const onPick = useCallback((row: TStockRow) => {
    setPicked(row.code);
  }, []);
  return (
    <div className="venue-page">
      <SessionBanner />
      <p className="venue-page__note" role="note" data-testid="pts-rule">
        {t('pts.cashNote')}
      </p>
      <SimulatedBadge />
      <PtsStocks
        picked={picked}
        onPick={onPick}
        onDone={() => {
          setPicked(null);
        }}
        loggedIn={loggedIn}
      />
      <section className="home-section" aria-labelledby="pts-applications-title">
        <div className="home-section__head">
          <h2 id="pts-applications-title" className="home-section__title">
            {t('pts.applicationsTitle')}
          </h2>
        </div>
        {loggedIn ? <ApplicationList /> : <LoginPrompt message={t('pts.loginPrompt')} />}
      </section>
    </div>
  );
}

function SessionBanner() {
  const { t } = useTranslation();
  const { data: status } = useQuery(marketStatusQuery());
  const text =
    status === undefined
      ? t('pts.sessionLoading')
      : status.always_open
        ? t('pts.sessionAlwaysOpen')
        : status.pts_open
          ? t('pts.sessionOpen')
          : t('pts.sessionClosed');
  const open = status?.pts_open === true;
  return (
    <section
      className={`venue-banner venue-banner--${open ? 'open' : 'closed'}`}
      role="status"
      data-testid="pts-session"
    >
      <strong>{open ? t('pts.openBadge') : t('pts.closedBadge')}</strong> <span>{text}</span>
    </section>
  );
}

function PtsStocks({
  picked,
  onPick,
  onDone,
  loggedIn,
}: {
  picked: string | null;
  onPick: (row: TStockRow) => void;
  onDone: () => void;
  loggedIn: boolean;
}) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const { data, isPending } = useQuery(marketListQuery(viewer, { sort: 'turnover', limit: STOCK_LIMIT }));
  const rules = useQuery(rulesQuery()).data;
  const stock = picked === null ? undefined : data?.items.find((r) => r.code === picked);
  const formRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (picked !== null) formRef.current?.scrollIntoView({ block: 'nearest' });
  }, [picked]);
  return (
    <section className="home-section" aria-labelledby="pts-stocks-title">
      <div className="home-section__head">
        <h2 id="pts-stocks-title" className="home-section__title">
          {t('pts.stocksTitle')}
        </h2>
        <span className="home-section__hint">{t('pts.stocksHint')}</span>
      </div>
      {isPending ? (
        <PageLoading />
      ) : data === undefined || data.items.length === 0 ? (
        <EmptyState />
      ) : (
        <StockList rows={data.items} label={t('pts.stocksTitle')} testId="pts-stocks" onPick={onPick} />
      )}
      <div ref={formRef}>
        {stock !== undefined &&
          (!loggedIn ? (
            <LoginPrompt message={t('pts.loginPrompt')} />
          ) : !stock.tradable ? (
            <EmptyState description={t('pts.notTradable')} />
          ) : rules === undefined ? (
            <PageLoading />
          ) : (
            <>
              <FeeScheduleNote rules={rules} testId="pts-fee-schedule" />
              <ApplicationForm key={stock.code} stock={stock} rules={rules} onDone={onDone} />
            </>
          ))}
      </div>
    </section>
  );
}

function ApplicationForm({
  stock,
  rules,
  onDone,
}: {
  stock: TStockRow;
  rules: TTradingRules;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const ticket = useOrderTicket({
    stock,
    quote: stock.quote,
    rules,
    venue: 'pts',
    fixed: { kind: 'cash' },
    dialogs: useTicketDialogs(<p className="trade-confirm__note">{t('pts.cashNote')}</p>),
  });
  return (
    <OrderTicketForm
      ticket={ticket}
      variant="compact"
      label={t('pts.formTitle')}
      className="order-form venue-order"
      submitLabel={t('pts.submit')}
      header={
        <div className="venue-form__head">
          <div>
            <strong data-testid="pts-form-stock">{`${stock.name} (${stock.code})`}</strong>
            <p className="stepper-field__hint">
              {t('pts.cashBuyOnly')} · {t('aiTrade.lastPrice', { price: ticket.price(stock.quote.last) })}
            </p>
          </div>
          <Button size="small" fill="none" onClick={onDone}>
            {t('pts.hideForm')}
          </Button>
        </div>
      }
    />
  );
}

function ApplicationList() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => (s.token === null ? null : s.userId));
  const { data, isPending } = useQuery(ordersQuery(userId, token, 'all', 'pts'));
  const { cancel, busy } = useCancelOrder();
  if (isPending) return <PageLoading />;
  if (data === undefined || data.length === 0) return <EmptyState description={t('pts.applicationsEmpty')} />;
  return (
    <ul className="trade-cards" data-testid="pts-applications" aria-label={t('pts.applicationsTitle')}>
      {data.map((order) => (
        <ApplicationCard
          key={order.order_no}
          order={order}
          busy={busy === order.order_no}
          onCancel={() => void cancel(order)}
        />
      ))}
    </ul>
  );
}

function ApplicationCard({ order, busy, onCancel }: { order: TOrder; busy: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const reason = reasonLabel(t, order.reason);
  const rows: TradeCardRow[] = [
    ['order-no', t('orders.orderNo'), order.order_no],
    ['status', t('orders.statusLabel'), orderStatusLabel(t, order)],
    [
      'price',
      t('trading.priceType'),
      order.limit_price === null
        ? t('trading.market')
        : `${t('trading.limit')} ${formatPriceAuto(order.limit_price, locale)}`,
    ],
    ['quantity', t('trading.quantity'), formatShares(order.quantity, locale)],
  ];
  if (order.fill_price !== null) {
    rows.push(['fill-price', t('orders.fillPrice'), formatPriceAuto(order.fill_price, locale)]);
  }
  if (order.status === 'pending') {
    rows.push(['reserved', t('orders.reserved'), formatMoney(order.reserved, locale)]);
  }
  rows.push(['created', t('pts.appliedAt'), formatDateTime(order.created_at, locale)]);
  if (order.filled_at !== null)
    rows.push(['filled', t('orders.filledAt'), formatDateTime(order.filled_at, locale)]);
  if (order.cancelled_at !== null) {
    rows.push([
      'cancelled',
      order.status === 'rejected' ? t('pts.failedAt') : t('orders.cancelledAt'),
      formatDateTime(order.cancelled_at, locale),
    ]);
  }
  return (
    <li
      className="trade-card"
      data-testid="pts-application"
      data-status={order.status}
      data-order-no={order.order_no}
    >
      <button
        type="button"
        className="trade-card__open"
        onClick={() => {
          navigateTo(orderDetailUrl(order.order_no));
        }}
      >
        <TradeCardHead
          name={order.name}
          code={order.code}
          tags={
            <span className={`trade-tag trade-tag--${order.status}`} data-testid="pts-application-tag">
              {orderStatusLabel(t, order)}
            </span>
          }
        />
        <TradeCardGrid rows={rows} testIdPrefix="pts-application" />
        {reason !== null && (
          <p className="trade-card__reason" data-testid="pts-application-reason">
            {reason}
          </p>
        )}
      </button>
      {order.status === 'pending' && (
        <div className="trade-card__actions">
          <Button
            size="small"
            color="danger"
            fill="outline"
            loading={busy}
            disabled={busy}
            onClick={onCancel}
          >
            {t('orders.cancel')}
          </Button>
        </div>
      )}
    </li>
  );
}
