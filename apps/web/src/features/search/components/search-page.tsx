import type { TInstrument } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { DotLoading } from 'antd-mobile';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { searchHistoryQuery, searchQuery } from '@/domains/market/market-api';
import { useViewer } from '@/domains/market/viewer';
import { navigateTo } from '@/shared/navigation/nav';
import { stockDetailUrl } from '@/shared/navigation/routes';
import { EmptyState } from '@/shared/ui/empty-state';
import { showSuccess } from '@/shared/ui/overlays';
import { useAddHistory, useClearHistory } from '../api/search-history';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { dialog } from '@/shared/ui/overlays';

/**
 * /subPackages/search/search: results as you type (debounced 250 ms) by code, name or reading; the
 * query is saved to the server's history (when logged in) on submitting or choosing a result.
 */
export const SEARCH_DEBOUNCE_MS = 250;

export function SearchPage() {
  const { t } = useTranslation();
  const inputId = useId();
  const viewer = useViewer();
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const q = text.trim() === '' ? '' : debounced;
  const results = useQuery(searchQuery(viewer.lang, q));
  const addHistory = useAddHistory();

  const save = (query: string) => {
    const trimmed = query.trim();
    if (viewer.token !== null && trimmed !== '') addHistory.mutate(trimmed.slice(0, 40));
  };
  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    save(text);
  };
  const open = (item: TInstrument) => {
    save(text === '' ? item.code : text);
    navigateTo(stockDetailUrl(item.code));
  };

  return (
    <div className="search-page">
      <form className="search-form" role="search" onSubmit={onSubmit} aria-label={t('search.label')}>
        <label className="visually-hidden" htmlFor={inputId}>
          {t('search.label')}
        </label>
        <input
          id={inputId}
          className="search-form__input"
          type="search"
          enterKeyHint="search"
          autoComplete="off"
          autoFocus
          maxLength={40}
          placeholder={t('search.placeholder')}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
        <button type="submit" className="search-form__submit">
          {t('search.submit')}
        </button>
      </form>
      {text.trim() === '' ? (
        <SearchHistory onPick={setText} />
      ) : (
        <SearchResults
          q={q}
          pending={results.isFetching || q !== text.trim()}
          items={results.data}
          onOpen={open}
        />
      )}
    </div>
  );
}

function SearchResults({
  q,
  pending,
  items,
  onOpen,
}: {
  q: string;
  pending: boolean;
  items: TInstrument[] | undefined;
  onOpen: (item: TInstrument) => void;
}) {
  const { t } = useTranslation();
  if (items === undefined || (pending && items.length === 0)) {
    return (
      <div className="page-center" role="status">
        <DotLoading color="primary" />
      </div>
    );
  }
  if (items.length === 0) return <EmptyState description={t('search.noResults', { q })} />;
  return (
    <section aria-label={t('search.results')} aria-busy={pending}>
      <ul className="search-results">
        {items.map((item) => (
          <li key={item.code}>
            <a
              className="search-results__item"
              href={`#${stockDetailUrl(item.code)}`}
              data-testid="search-result"
              onClick={(event) => {
                event.preventDefault();
                onOpen(item);
              }}
            >
              <span className="search-results__code">{item.code}</span>
              <span className="search-results__names">
                <span className="search-results__name">{item.name}</span>
                {item.name_ja !== item.name && <span className="search-results__alt">{item.name_ja}</span>}
              </span>
              <span className="search-results__market">
                {item.market}
                {!item.tradable && <span className="search-results__note">{t('market.noPrices')}</span>}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SearchHistory({ onPick }: { onPick: (query: string) => void }) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const history = useQuery(searchHistoryQuery(viewer.userId, viewer.token));
  const clear = useClearHistory();
  if (viewer.token === null) {
    return <p className="page-hint">{`${t('search.hint')} ${t('search.historyLogin')}`}</p>;
  }
  const entries = history.data ?? [];
  const confirmClear = async () => {
    const ok = await dialog.confirm({
      content: t('search.clearConfirm'),
      confirmText: t('common.ok'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    clear.mutate(undefined, {
      onSuccess: () => {
        showSuccess(t('search.cleared'));
      },
    });
  };
  return (
    <section className="search-history" aria-labelledby="search-history-title">
      <div className="search-history__head">
        <h2 id="search-history-title" className="search-history__title">
          {t('search.history')}
        </h2>
        {entries.length > 0 && (
          <button type="button" className="search-history__clear" onClick={() => void confirmClear()}>
            {t('search.clear')}
          </button>
        )}
      </div>
      {entries.length === 0 ? (
        <p className="page-hint" data-testid="history-empty">
          {history.isPending ? t('common.loading') : `${t('search.historyEmpty')} ${t('search.hint')}`}
        </p>
      ) : (
        <ul className="search-history__list" data-testid="search-history">
          {entries.map((entry) => (
            <li key={`${entry.query}-${entry.searched_at}`}>
              <button
                type="button"
                className="search-history__entry"
                onClick={() => {
                  onPick(entry.query);
                }}
              >
                {entry.query}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
