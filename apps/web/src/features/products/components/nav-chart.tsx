import type { Locale, TNavPoint } from '@kabuto/contract';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney } from '@/shared/format/format';

const WIDTH = 340;
const HEIGHT = 140;

/** The product's NAV history as a line (基準価額の推移), from the struck NAVs only. */
export function NavChart({ history, locale }: { history: readonly TNavPoint[]; locale: Locale }) {
  const { t } = useTranslation();
  if (history.length < 2) return <p className="products-muted">{t('products.chartTooShort')}</p>;
  const navs = history.map((h) => h.nav);
  const min = Math.min(...navs);
  const max = Math.max(...navs);
  const span = max - min || 1;
  const points = history
    .map((h, i) => {
      const x = (i / (history.length - 1)) * WIDTH;
      const y = HEIGHT - ((h.nav - min) / span) * (HEIGHT - 10) - 5;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  const first = history[0];
  const last = history[history.length - 1];
  return (
    <figure className="products-chart" data-testid="nav-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={t('products.chartLabel', {
          from: first ? formatDate(first.date, locale) : '',
          to: last ? formatDate(last.date, locale) : '',
        })}
      >
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
      <figcaption className="products-muted">
        {t('products.chartRange', {
          min: formatMoney(min as never, locale),
          max: formatMoney(max as never, locale),
          n: history.length,
        })}
      </figcaption>
    </figure>
  );
}
