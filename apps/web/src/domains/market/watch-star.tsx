import { useTranslation } from 'react-i18next';
import { useWatchToggle } from './use-watch-toggle';

/** The watchlist star: a toggle button (aria-pressed) named "Add to / Remove from watchlist". */
export function WatchStar({ code, name, watched }: { code: string; name: string; watched: boolean }) {
  const { t } = useTranslation();
  const { toggle, pendingCode } = useWatchToggle();
  const label = t(watched ? 'market.removeWatch' : 'market.addWatch');
  return (
    <button
      type="button"
      className={`watch-star${watched ? ' watch-star--on' : ''}`}
      aria-label={label}
      aria-pressed={watched}
      aria-busy={pendingCode === code}
      title={`${label}: ${name}`}
      data-testid="watch-star"
      onClick={() => {
        toggle(code, !watched);
      }}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path
          d="m12 3.5 2.6 5.4 5.9.8-4.3 4.1 1 5.9L12 16.9l-5.2 2.8 1-5.9-4.3-4.1 5.9-.8z"
          fill={watched ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.7"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
