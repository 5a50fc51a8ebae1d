import { sen, type Locale, type TPosition } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatSignedMoney } from '@/shared/format/format';
import { formatChangeBp, formatPriceAuto, formatShares } from '@/shared/format/price';
import { navigateTo } from '@/shared/navigation/nav';
import { ordersUrl } from '@/shared/navigation/routes';
import { useLiveQuotes } from '@/shared/realtime/use-live-quotes';
import { useSession } from '@/shared/session/session';
import { positionFigures } from '@/domains/trading/order-figures';
import {
  accountLabel,
  isMarginTrade,
  marginTypeLabel,
  marginTypeOf,
  positionKindLabel,
} from '@/domains/trading/order-labels';
import { positionsQuery } from '@/domains/trading/trading-api';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { useLocale } from '@/shared/i18n/use-locale';

/** The user's open positions at live prices; each opens the holding tab of the orders page. */
export function PositionsSummary() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => (s.token === null ? null : s.userId));
  const locale = useLocale();
  const { data, isPending } = useQuery(positionsQuery(userId, token, 'holding'));
  const quotes = useLiveQuotes((data ?? []).map((p) => p.code));
  if (isPending) return <PageLoading />;
  if (data === undefined || data.length === 0)
    return <EmptyState description={t('aiTrade.positionsEmpty')} />;
  const total = data.reduce((sum, p) => {
    const live = quotes.get(p.code)?.last;
    return sum + (live === undefined ? p.floating_pl : positionFigures(p, live).floatingPl);
  }, 0);
  return (
    <>
      <p className="ai-positions__total" data-testid="ai-positions-total">
        {t('aiTrade.positionsTotal', { amount: formatSignedMoney(sen(total), locale) })}
      </p>
      <ul
        className="trade-cards ai-positions"
        aria-label={t('aiTrade.positionsTitle')}
        data-testid="ai-positions"
      >
        {data.map((position) => (
          <PositionItem
            key={position.id}
            position={position}
            livePrice={quotes.get(position.code)?.last ?? null}
            locale={locale}
          />
        ))}
      </ul>
    </>
  );
}

function PositionItem({
  position,
  livePrice,
  locale,
}: {
  position: TPosition;
  livePrice: number | null;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const live =
    livePrice === null
      ? {
          lastPrice: position.last_price,
          marketValue: position.market_value,
          floatingPl: position.floating_pl,
          floatingPlBp: position.floating_pl_bp,
        }
      : positionFigures(position, livePrice);
  const margin = isMarginTrade(position);
  const cls = live.floatingPl > 0 ? 'price-rise' : live.floatingPl < 0 ? 'price-fall' : 'price-flat';
  const href = ordersUrl('holding');
  return (
    <li className="trade-card" data-testid="ai-position" data-code={position.code}>
      <a
        className="trade-card__open ai-position__link"
        href={`#${href}`}
        onClick={(event) => {
          event.preventDefault();
          navigateTo(href);
        }}
      >
        <span className="trade-card__head">
          <span>
            <span className="trade-card__name">{position.name}</span>{' '}
            <span className="trade-card__code">{position.code}</span>
          </span>
          <span className="trade-card__tags">
            <span className="trade-tag">{positionKindLabel(t, position)}</span>
            <span className="trade-tag">
              {margin ? marginTypeLabel(t, marginTypeOf(position)) : accountLabel(t, position.account)}
            </span>
          </span>
        </span>
        <span className="ai-position__grid">
          <span className="ai-position__cell">
            <span className="ai-position__label">{t('orders.sharesHeld')}</span>
            <span className="ai-position__value" data-testid="ai-position-quantity">
              {formatShares(position.quantity, locale)}
            </span>
          </span>
          <span className="ai-position__cell">
            <span className="ai-position__label">{t('orders.currentPrice')}</span>
            <span className="ai-position__value" data-testid="ai-position-price">
              {formatPriceAuto(live.lastPrice, locale)}
            </span>
          </span>
          <span className="ai-position__cell">
            <span className="ai-position__label">{t('trading.marketValue')}</span>
            <span className="ai-position__value">{formatMoney(sen(live.marketValue), locale)}</span>
          </span>
          <span className="ai-position__cell">
            <span className="ai-position__label">{t('orders.floatingPl')}</span>
            <span className={`ai-position__value ${cls}`} data-testid="ai-position-pl">
              {`${formatSignedMoney(sen(live.floatingPl), locale)} (${formatChangeBp(live.floatingPlBp, locale)})`}
            </span>
          </span>
        </span>
      </a>
    </li>
  );
}
