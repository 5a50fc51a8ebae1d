import { localeOf, type Locale } from '@kabuto/contract';
import { useSession } from '../session/session';

/** The session's locale (for formatMoney, dates, names): re-renders when the language changes. */
export function useLocale(): Locale {
  return localeOf(useSession((s) => s.lang));
}
