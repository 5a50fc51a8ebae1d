import { MARGIN_RULES, yen, type TPosition } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, formatSignedMoney } from '@/shared/format/format';
import { formatPriceAuto, formatShares } from '@/shared/format/price';
import { marketListQuery } from '@/domains/market/market-api';
import { SimulatedBadge } from '@/domains/market/simulated-badge';
import { useViewer } from '@/domains/market/viewer';
import { useQuoteStream } from '@/shared/realtime/realtime';
import { useSession } from '@/shared/session/session';
import { useUserInfo } from '@/shared/session/user-info-query';
import {
  FeeScheduleNote,
  OrderTicketForm,
  useTicketDialogs,
} from '@/domains/trading/order-ticket/order-ticket-view';
import { useOrderTicket } from '@/domains/trading/order-ticket/use-order-ticket';
import {
  closeReasons,
  closedDayTradesToday,
  holdingDayTrades,
  marginTypeLabel,
  marginTypeOf,
  positionKindLabel,
  reasonLabel,
} from '@/domains/trading/order-labels';
import { type PickedStockTicketProps, StockPicker } from '@/domains/trading/stock-picker';
import { TradeCardGrid, TradeCardHead, type TradeCardRow } from '@/domains/trading/trade-card';
import { ordersQuery, positionsQuery, rulesQuery } from '@/domains/trading/trading-api';
import { EmptyState } from '@/shared/ui/empty-state';
import { LoginPrompt } from '@/shared/ui/login-prompt';
import { PageLoading } from '@/shared/ui/page-loading';
import { useLocale } from '@/shared/i18n/use-locale';
import { OpenAccountGate } from '@/domains/opening/account-opening-prompt';

/**
 * /subPackages/index/rinei/index (specification §2, the day/spot trade screen): day-trade margin. The
 * rule in plain words, an order ticket with the day trade fixed on (leverage 2x or 3x, long or short),
 * today's open day-trade positions and the ones closed today, each with how it was closed.
 */
const PICKER_LIMIT = 10;

export function DayTradePage() {
  const { t } = useTranslation();
  const { loggedIn } = useUserInfo();
  return (
    <div className="venue-page">
      <Rules />
      <SimulatedBadge />
      {loggedIn ? (
        <>
          <OpenAccountGate>
            <DayTradeOrder />
          </OpenAccountGate>
          <TodayPositions />
        </>
      ) : (
        <LoginPrompt message={t('dayTrade.loginPrompt')} />
      )}
    </div>
  );
}

function Rules() {
  const { t } = useTranslation();
  const locale = useLocale();
  const rules = useQuery(rulesQuery()).data;
  const initial = (rules?.initial_margin_bp ?? MARGIN_RULES.initialMarginBp) / 100;
  const maintenance = (rules?.maintenance_bp ?? MARGIN_RULES.maintenanceBp) / 100;
  const min = rules?.min_collateral ?? yen(MARGIN_RULES.minCollateralYen);
  return (
    <section
      className="notice-card"
      role="note"
      aria-labelledby="day-trade-rules-title"
      data-testid="day-trade-rules"
    >
      <h2 id="day-trade-rules-title">{t('dayTrade.rulesTitle')}</h2>
      <ul className="venue-page__rules">
        <li>{t('dayTrade.ruleClose')}</li>
        <li>
          {t('dayTrade.ruleMargin', {
            rate: `${String(initial)}%`,
            min: formatMoney(min, locale),
          })}
        </li>
        <li>{t('dayTrade.ruleMarginCall', { rate: `${String(maintenance)}%` })}</li>
      </ul>
    </section>
  );
}

function DayTradeOrder() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const { data, isPending } = useQuery(marketListQuery(viewer, { sort: 'price', limit: PICKER_LIMIT }));
  const rules = useQuery(rulesQuery()).data;
  const rows = useMemo(() => (data?.items ?? []).filter((r) => r.tradable), [data]);
  useQuoteStream(useMemo(() => rows.map((r) => r.code), [rows]));
  const [pickedCode, setCode] = useState('');
  const stock = rows.find((r) => r.code === pickedCode) ?? rows[0];
  return (
    <section className="home-section" aria-labelledby="day-trade-order-title">
      <div className="home-section__head">
        <h2 id="day-trade-order-title" className="home-section__title">
          {t('dayTrade.orderTitle')}
        </h2>
      </div>
      <FeeScheduleNote rules={rules} testId="day-trade-fee-schedule" />
      {isPending || rules === undefined ? (
        <PageLoading />
      ) : stock === undefined ? (
        <EmptyState description={t('aiTrade.noTradable')} />
      ) : (
        <DayTradeTicket rows={rows} stock={stock} rules={rules} onPick={setCode} />
      )}
    </section>
  );
}

function DayTradeTicket({ rows, stock, rules, onPick }: PickedStockTicketProps) {
  const { t } = useTranslation();
  const ticket = useOrderTicket({
    stock,
    quote: stock.quote,
    rules,
    // 日計り信用 is a negotiable (一般信用) margin trade repaid the same day; it starts, like every ticket, at
    // the smallest quantity and the highest collateral rate (100%), and its confirm dialog names the amount.
    fixed: { kind: 'margin', marginType: 'general', dayTrade: true },
    dialogs: useTicketDialogs(<p className="trade-confirm__note">{t('dayTrade.ruleClose')}</p>),
  });
  return (
    <OrderTicketForm
      ticket={ticket}
      variant="compact"
      label={t('dayTrade.orderTitle')}
      className="order-form venue-order"
      header={
        <StockPicker rows={rows} stock={stock} ticket={ticket} onPick={onPick} testIdPrefix="day-trade" />
      }
      footer={
        <p className="order-form__note" role="note">
          {t('dayTrade.ticketNote')}
        </p>
      }
    />
  );
}

function TodayPositions() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => (s.token === null ? null : s.userId));
  const holding = useQuery(positionsQuery(userId, token, 'holding'));
  const closed = useQuery(positionsQuery(userId, token, 'closed'));
  const done = useQuery(ordersQuery(userId, token, 'done'));
  const open = useMemo(() => holdingDayTrades(holding.data ?? []), [holding.data]);
  const closedToday = useMemo(() => closedDayTradesToday(closed.data ?? [], new Date()), [closed.data]);
  const reasons = useMemo(() => closeReasons(done.data ?? []), [done.data]);
  return (
    <section className="home-section" aria-labelledby="day-trade-today-title">
      <div className="home-section__head">
        <h2 id="day-trade-today-title" className="home-section__title">
          {t('dayTrade.todayTitle')}
        </h2>
      </div>
      <h3 className="venue-page__subtitle">{t('dayTrade.openTitle')}</h3>
      {holding.isPending ? (
        <PageLoading />
      ) : open.length === 0 ? (
        <EmptyState description={t('dayTrade.openEmpty')} />
      ) : (
        <ul className="trade-cards" data-testid="day-trade-open" aria-label={t('dayTrade.openTitle')}>
          {open.map((p) => (
            <PositionCard key={p.id} position={p} reason={null} />
          ))}
        </ul>
      )}
      <h3 className="venue-page__subtitle">{t('dayTrade.closedTitle')}</h3>
      {closed.isPending ? (
        <PageLoading />
      ) : closedToday.length === 0 ? (
        <EmptyState description={t('dayTrade.closedEmpty')} />
      ) : (
        <ul className="trade-cards" data-testid="day-trade-closed" aria-label={t('dayTrade.closedTitle')}>
          {closedToday.map((p) => (
            <PositionCard key={p.id} position={p} reason={reasons.get(p.id) ?? null} />
          ))}
        </ul>
      )}
    </section>
  );
}

function PositionCard({ position, reason }: { position: TPosition; reason: string | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const isClosed = position.status === 'closed';
  const rows: TradeCardRow[] = [
    [
      'direction',
      t('trading.direction'),
      `${positionKindLabel(t, position)} · ${marginTypeLabel(t, marginTypeOf(position))}`,
    ],
    ['quantity', t('orders.shares'), formatShares(position.quantity, locale)],
    ['opened', t('orders.buyTime'), formatDateTime(position.opened_at, locale)],
    ['open-price', t('orders.buyPrice'), formatPriceAuto(position.avg_price, locale)],
  ];
  if (isClosed) {
    rows.push(
      [
        'closed',
        t('orders.sellTime'),
        position.closed_at === null ? '—' : formatDateTime(position.closed_at, locale),
      ],
      [
        'close-price',
        t('orders.sellPrice'),
        position.close_price === null ? '—' : formatPriceAuto(position.close_price, locale),
      ],
      ['pl', t('orders.realizedPl'), formatSignedMoney(position.realized_pl, locale)],
      [
        'closed-by',
        t('dayTrade.closedBy'),
        reason === null ? t('dayTrade.closedByYou') : (reasonLabel(t, reason) ?? ''),
      ],
    );
  } else {
    rows.push(
      ['price', t('orders.currentPrice'), formatPriceAuto(position.last_price, locale)],
      ['collateral', t('dayTrade.collateral'), formatMoney(position.collateral, locale)],
      ['pl', t('orders.floatingPl'), formatSignedMoney(position.floating_pl, locale)],
    );
  }
  return (
    <li className="trade-card" data-testid="day-trade-position" data-code={position.code}>
      <div className="trade-card__open">
        <TradeCardHead
          name={position.name}
          code={position.code}
          tags={<span className="trade-tag">{t('trading.dayTrade')}</span>}
        />
        <TradeCardGrid rows={rows} testIdPrefix="day-trade" />
      </div>
    </li>
  );
}
