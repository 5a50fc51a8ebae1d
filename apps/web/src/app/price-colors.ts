import { priceColorsOf } from '@/shared/session/session-store';
import { sessionStore } from '@/shared/session/session';

// AA contrast (4.5:1) on white and on the pages' grey (#f5f5f5) as text: issue 21
const RED = '#d02a1a';
const GREEN = '#15803d';

/** Keeps the CSS variables --rise and --fall in line with the price colour setting. */
export function installPriceColors(): void {
  const apply = () => {
    const choice = priceColorsOf(sessionStore.getState());
    const style = document.documentElement.style;
    style.setProperty('--rise', choice === 'red-up' ? RED : GREEN);
    style.setProperty('--fall', choice === 'red-up' ? GREEN : RED);
  };
  apply();
  sessionStore.subscribe(apply);
}
