import { useSyncExternalStore } from 'react';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * Whether the reader asked the system for less motion (`prefers-reduced-motion: reduce`), followed live:
 * the web app's banners stop turning by themselves, and the console's dialogs and drawers open without
 * their zoom and slide.
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener('change', changed);
      return () => {
        query.removeEventListener('change', changed);
      };
    },
    () => window.matchMedia(REDUCED_MOTION).matches,
  );
}
