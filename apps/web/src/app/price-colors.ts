import { priceColorsOf } from '@/shared/session/session-store';
import { sessionStore } from '@/shared/session/session';

const RED = '#e0301e';
const GREEN = '#1a9a4b';

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
