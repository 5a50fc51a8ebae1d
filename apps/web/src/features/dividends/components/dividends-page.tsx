import type { TReceivedDividend, TUpcomingDividend } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney, formatSignedMoney } from '@/shared/format/format';
import { formatShares } from '@/shared/format/price';
import { useLocale } from '@/shared/i18n/use-locale';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { dividendsQuery } from '../api/dividends';
import '../dividends.css';

/**
 * /subPackages/index/hongli/hongli: upcoming dividends of the user's holdings and watchlist with the
 * countdown to the cum date (権利付最終日), and the dividends received: gross, tax withheld, net (ADR 0027).
 */
export function DividendsPage() {
  return (
    <RequireLogin>
      <Dividends />
    </RequireLogin>
  );
}

function Dividends() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const view = useQuery(dividendsQuery(userId, token));
  if (view.isPending) return <PageLoading />;
  const upcoming = view.data?.upcoming ?? [];
  const history = view.data?.history ?? [];
  return (
    <div className="dividends-page">
      <section
        className="dividends-card"
        aria-labelledby="dividends-upcoming"
        data-testid="dividends-upcoming"
      >
        <h2 id="dividends-upcoming">{t('dividends.upcoming')}</h2>
        {upcoming.length === 0 ? (
          <EmptyState description={t('dividends.noUpcoming')} />
        ) : (
          <ul className="dividends-list">
            {upcoming.map((d) => (
              <Upcoming key={d.id} dividend={d} />
            ))}
          </ul>
        )}
        <p className="dividends-muted">{t('dividends.rule')}</p>
      </section>
      <section className="dividends-card" aria-labelledby="dividends-history" data-testid="dividends-history">
        <h2 id="dividends-history">{t('dividends.history')}</h2>
        {history.length === 0 ? (
          <EmptyState description={t('dividends.noHistory')} />
        ) : (
          <ul className="dividends-list">
            {history.map((d) => (
              <Received key={d.id} dividend={d} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="dividends-row">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function Upcoming({ dividend: d }: { dividend: TUpcomingDividend }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className="dividends-item" data-testid="dividend-upcoming">
      <strong>
        {d.code} {d.name}
      </strong>
      <span className="dividends-badge">{t(`dividends.reasons.${d.reason}`)}</span>
      <p className="dividends-countdown">
        {d.days_to_cum === null
          ? t('dividends.cumPassed')
          : d.days_to_cum === 0
            ? t('dividends.cumToday')
            : d.days_to_cum === 1
              ? t('dividends.cumOne')
              : t('dividends.cumIn', { count: d.days_to_cum })}
      </p>
      <dl>
        <Row label={t('dividends.perShare')} value={formatMoney(d.per_share, locale)} />
        <Row label={t('dividends.cumDate')} value={formatDate(d.cum_date, locale)} />
        <Row label={t('dividends.exDate')} value={formatDate(d.ex_date, locale)} />
        <Row label={t('dividends.recordDate')} value={formatDate(d.record_date, locale)} />
        <Row label={t('dividends.paymentDate')} value={formatDate(d.payment_date, locale)} />
        {d.quantity > 0 && <Row label={t('dividends.held')} value={formatShares(d.quantity, locale)} />}
        {d.quantity > 0 && (
          <Row label={t('dividends.expected')} value={formatMoney(d.expected_gross, locale)} />
        )}
      </dl>
      {d.source !== null && <p className="dividends-muted">{t('dividends.source', { source: d.source })}</p>}
    </li>
  );
}

function Received({ dividend: d }: { dividend: TReceivedDividend }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className="dividends-item" data-testid="dividend-received">
      <strong>
        {d.code} {d.name}
      </strong>
      <span className="dividends-badge">{t(`dividends.kinds.${d.kind}`)}</span>
      <dl>
        <Row label={t('dividends.paymentDate')} value={formatDate(d.payment_date, locale)} />
        <Row label={t('dividends.shares')} value={formatShares(d.quantity, locale)} />
        <Row label={t('dividends.gross')} value={formatMoney(d.gross, locale)} />
        <Row label={t('dividends.taxNational')} value={formatMoney(d.tax_national, locale)} />
        <Row label={t('dividends.taxLocal')} value={formatMoney(d.tax_local, locale)} />
        <Row label={t('dividends.net')} value={formatSignedMoney(d.net, locale)} />
        <Row label={t('dividends.account')} value={t(`dividends.accounts.${d.tax_account}`)} />
      </dl>
    </li>
  );
}
