import { ZApplicationList } from '@kabuto/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { accountLabel } from '../labels';

/** GET /api/ipo/applications, under the IPO page's query key so both read one cache entry. */
function applicationsQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: ['ipo', 'applications', userId] as const,
    queryFn: () => api.request({ path: '/ipo/applications', schema: ZApplicationList }),
    enabled: token !== null,
    staleTime: 5_000,
  });
}

/** The orders page's IPO results tab: the user's applications with their state and figures, newest first. */
export function IpoResults() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const locale = useLocale();
  const { data, isPending } = useQuery(applicationsQuery(userId, token));
  if (isPending) return <PageLoading />;
  const items = data?.items ?? [];
  if (items.length === 0) return <EmptyState description={t('orders.ipoEmpty')} />;
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 12 }} data-testid="ipo-results">
      {items.map((a) => (
        <li key={a.id} style={{ borderBottom: '1px solid #eee', padding: '8px 0' }}>
          <div>
            <strong>
              {a.name} ({a.code})
            </strong>{' '}
            · {t(a.kind === 'ipo' ? `ipo.states.${a.state}` : `ipo.distributionStates.${a.state}`)}
            {a.reason && a.reason !== 'withdrawn' ? ` (${t(`ipo.reasons.${a.reason}`)})` : ''}
          </div>
          <div>
            {t('ipo.applied', { n: a.units })} · {t('ipo.won', { n: a.won_units })} · {t('ipo.amountDue')}:{' '}
            {formatMoney(a.amount_due, locale)} · {t('ipo.amountPaid')}: {formatMoney(a.amount_paid, locale)}
          </div>
          {a.account !== null && (
            <div data-testid="ipo-result-account">
              {t('ipo.accountLabel')}: {accountLabel(t, a.account)}
            </div>
          )}
          <div style={{ fontSize: 12, color: '#666' }}>{formatDateTime(a.created_at, locale)}</div>
        </li>
      ))}
    </ul>
  );
}
