import { type Locale, type TStockRow } from '@kabuto/contract';
import { memo, useDeferredValue, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  changeClass,
  formatChangeBp,
  formatCompact,
  formatPlainPrice,
  priceDecimalsOf,
} from '@/shared/format/price';
import { navigateTo } from '@/shared/navigation/nav';
import { stockDetailUrl } from '@/shared/navigation/routes';
import { useQuoteStream } from '@/shared/realtime/realtime';
import { StaleMarker } from './stale-marker';
import { useIsStale } from '@/shared/market-clock/staleness';
import { WatchStar } from './watch-star';
import { useLocale } from '@/shared/i18n/use-locale';

/**
 * A list of stocks: name and code, price, change % (coloured), volume and the watchlist star. Rows are
 * links to the detail page. Column headers sort the loaded rows (tap again to reverse); quotes of the
 * rows on screen stream live into the query cache, and only rows whose quote changed render again.
 */
export type SortColumn = 'price' | 'change' | 'volume';

/**
 * The rows drawn in the list's first render: about a phone's screenful. The rest follow in a background render
 * that React splits and interrupts, instead of one 130 ms block of the main thread for fifty rows on the page's
 * first paint (520 ms on a phone's slower CPU; issue 21).
 */
export const FIRST_ROWS = 10;
export interface SortState {
  column: SortColumn;
  descending: boolean;
}

const valueOf: Record<SortColumn, (row: TStockRow) => number> = {
  price: (r) => r.quote.last,
  change: (r) => r.quote.change_bp,
  volume: (r) => r.quote.volume,
};

export function sortRows(rows: readonly TStockRow[], sort: SortState | null): readonly TStockRow[] {
  if (sort === null) return rows;
  const get = valueOf[sort.column];
  const sign = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => sign * (get(a) - get(b)) || a.code.localeCompare(b.code));
}

/** The codes of the rows within (or near) the viewport, observed with an IntersectionObserver. */
function useVisibleCodes(container: React.RefObject<HTMLElement | null>, codes: readonly string[]): string[] {
  const key = codes.join(',');
  const [visible, setVisible] = useState<ReadonlySet<string> | null>(null);
  useEffect(() => {
    const root = container.current;
    if (root === null || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        setVisible((prev) => {
          const next = new Set(prev);
          for (const entry of entries) {
            const code = (entry.target as HTMLElement).dataset['code'];
            if (code === undefined) continue;
            if (entry.isIntersecting) next.add(code);
            else next.delete(code);
          }
          return next;
        });
      },
      { rootMargin: '160px 0px' },
    );
    for (const el of root.querySelectorAll('[data-code]')) observer.observe(el);
    return () => {
      observer.disconnect();
    };
  }, [container, key]);
  return useMemo(
    () => (visible === null ? [...codes] : codes.filter((c) => visible.has(c))),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `codes`
    [visible, key],
  );
}

export function StockList({
  rows,
  sortable = false,
  label,
  testId,
  onPick,
}: {
  rows: readonly TStockRow[];
  sortable?: boolean;
  label: string;
  testId?: string;
  /** Tapping a row calls this instead of opening the stock's detail page (e.g. the PTS application form). */
  onPick?: (row: TStockRow) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [sort, setSort] = useState<SortState | null>(null);
  const shown = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const drawn = useDeferredValue(shown.length, Math.min(shown.length, FIRST_ROWS));
  const codes = useMemo(() => shown.slice(0, drawn).map((r) => r.code), [shown, drawn]);
  const ref = useRef<HTMLUListElement>(null);
  useQuoteStream(useVisibleCodes(ref, codes));

  const header = (column: SortColumn, text: string) => {
    if (!sortable) return <span className={`stock-list__col stock-list__col--${column}`}>{text}</span>;
    const active = sort?.column === column;
    return (
      <button
        type="button"
        className={`stock-list__col stock-list__col--${column} stock-list__sort`}
        aria-label={t('market.sortBy', { column: text })}
        aria-pressed={active}
        data-sort={active ? (sort.descending ? 'desc' : 'asc') : 'none'}
        onClick={() => {
          setSort((prev) =>
            prev?.column === column
              ? prev.descending
                ? { column, descending: false }
                : null
              : { column, descending: true },
          );
        }}
      >
        {text}
        <span aria-hidden="true" className="stock-list__arrow">
          {active ? (sort.descending ? '▼' : '▲') : '⇅'}
        </span>
      </button>
    );
  };

  return (
    <div className="stock-list" data-testid={testId}>
      <div className="stock-list__head" aria-hidden={!sortable}>
        <span className="stock-list__col stock-list__col--name">{t('market.colName')}</span>
        {header('price', t('market.colPrice'))}
        {header('change', t('market.colChange'))}
        {header('volume', t('market.colVolume'))}
        <span className="stock-list__col stock-list__col--star" />
      </div>
      <ul className="stock-list__rows" aria-label={label} ref={ref}>
        {shown.slice(0, drawn).map((row) => (
          <StockRowItem key={row.code} row={row} locale={locale} onPick={onPick} />
        ))}
      </ul>
    </div>
  );
}

const StockRowItem = memo(function StockRowItem({
  row,
  locale,
  onPick,
}: {
  row: TStockRow;
  locale: Locale;
  onPick: ((row: TStockRow) => void) | undefined;
}) {
  const stale = useIsStale(row.quote.time);
  const decimals = priceDecimalsOf(row.price_decimals);
  const cls = changeClass(row.quote.change);
  const href = stockDetailUrl(row.code);
  const open = (event: MouseEvent) => {
    event.preventDefault();
    if (onPick === undefined) navigateTo(href);
    else onPick(row);
  };
  return (
    <li className={`stock-row${stale ? ' quote--stale' : ''}`} data-code={row.code} data-testid="stock-row">
      <a className="stock-row__link" href={`#${href}`} onClick={open}>
        <span className="stock-list__col stock-list__col--name">
          <span className="stock-row__name">{row.name}</span>
          <span className="stock-row__code">
            {row.code}
            {stale && <StaleMarker />}
          </span>
        </span>
        <span className={`stock-list__col stock-list__col--price ${cls}`}>
          {formatPlainPrice(row.quote.last, decimals, locale)}
        </span>
        <span className={`stock-list__col stock-list__col--change ${cls}`}>
          <span className="change-pill">{formatChangeBp(row.quote.change_bp, locale)}</span>
        </span>
        <span className="stock-list__col stock-list__col--volume">
          {formatCompact(row.quote.volume, locale)}
        </span>
      </a>
      <span className="stock-list__col stock-list__col--star">
        <WatchStar code={row.code} name={row.name} watched={row.watched} />
      </span>
    </li>
  );
});
