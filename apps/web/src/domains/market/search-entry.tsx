import { useTranslation } from 'react-i18next';
import { navigateTo } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';

/** A search field look-alike that opens the search page. */
export function SearchEntry() {
  const { t } = useTranslation();
  return (
    <a
      className="search-entry"
      href={`#${PAGE_PATHS.search}`}
      onClick={(event) => {
        event.preventDefault();
        navigateTo(PAGE_PATHS.search);
      }}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
        <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="m16 16 4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span>{t('market.searchOpen')}</span>
    </a>
  );
}
