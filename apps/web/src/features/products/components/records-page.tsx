import type { Locale, Sen, TProductRecord } from '@kabuto/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, formatMoney, formatSignedMoney } from '@/shared/format/format';
import { changeClass, formatShares } from '@/shared/format/price';
import { useLocale } from '@/shared/i18n/use-locale';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { showSuccess } from '@/shared/ui/overlays';
import { productKeys, productRecordsQuery, sellRecord } from '../api/products';
import '../products.css';
import { dialog } from '@/shared/ui/overlays';

/**
 * /subPackages/index/gendan/record: every purchase and sale of follow-up products with its status (pending
 * review until its NAV is struck, following, follow ended), amounts, times, yesterday's earnings and total
 * profit (derived by the server from NAVs and units), and the sell button behind a confirm prompt.
 */
export function ProductRecordsPage() {
  return (
    <RequireLogin>
      <Records />
    </RequireLogin>
  );
}

function Records() {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const records = useQuery(productRecordsQuery(userId, token));
  if (records.isPending) return <PageLoading />;
  const items = records.data?.items ?? [];
  if (items.length === 0) return <EmptyState description={t('products.noRecords')} />;
  return (
    <ul className="products-page products-list">
      {items.map((r) => (
        <RecordCard key={r.id} record={r} locale={locale} />
      ))}
    </ul>
  );
}

function Money({
  label,
  value,
  locale,
  signed = false,
}: {
  label: string;
  value: Sen | null;
  locale: Locale;
  signed?: boolean;
}) {
  return (
    <div className="products-fact">
      <dt>{label}</dt>
      <dd className={signed && value !== null ? changeClass(value) : undefined}>
        {value === null ? '—' : signed ? formatSignedMoney(value, locale) : formatMoney(value, locale)}
      </dd>
    </div>
  );
}

function RecordCard({ record: r, locale }: { record: TProductRecord; locale: Locale }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  return (
    <li className="products-card" data-testid="product-record" data-status={r.status}>
      <span className="products-card__issuer">{r.issuer}</span>
      <strong className="products-card__name">{r.product_name}</strong>
      <p data-testid="record-status">{t(`products.recordStatuses.${r.status}`)}</p>
      <dl className="products-facts">
        <Money label={t('products.buyAmount')} value={r.amount} locale={locale} />
        <div className="products-fact">
          <dt>{t('products.buyTime')}</dt>
          <dd>{formatDateTime(r.buy_at, locale)}</dd>
        </div>
        <div className="products-fact">
          <dt>{t('products.units')}</dt>
          <dd>
            {r.units === null
              ? t('products.navOn', { date: formatDate(r.buy_nav_date, locale) })
              : formatShares(r.units, locale)}
          </dd>
        </div>
        <Money label={t('products.value')} value={r.value} locale={locale} />
        <Money label={t('products.yesterday')} value={r.yesterday_earnings} locale={locale} signed />
        <Money label={t('products.totalProfit')} value={r.total_profit} locale={locale} signed />
        {r.sell_at !== null && (
          <div className="products-fact">
            <dt>{t('products.sellTime')}</dt>
            <dd>{formatDateTime(r.sell_at, locale)}</dd>
          </div>
        )}
        {r.proceeds !== null && <Money label={t('products.proceeds')} value={r.proceeds} locale={locale} />}
      </dl>
      {r.status === 'following' && (
        <Button
          size="small"
          color="danger"
          fill="outline"
          data-testid="record-sell"
          onClick={() => {
            void (async () => {
              const ok = await dialog.confirm({
                title: t('products.sellConfirmTitle'),
                content: t('products.sellConfirmBody', { name: r.product_name }),
                confirmText: t('products.sell'),
                cancelText: t('common.cancel'),
              });
              if (!ok) return;
              const sold = await sellRecord(r.id, crypto.randomUUID()).catch(() => null);
              if (sold === null) return;
              showSuccess(
                t('products.sellAccepted', { date: formatDate(sold.sell_nav_date ?? '', locale) }),
                2500,
              );
              void client.invalidateQueries({ queryKey: productKeys.all });
            })();
          }}
        >
          {t('products.sell')}
        </Button>
      )}
    </li>
  );
}
