import type { LangCode } from '@kabuto/contract';
import { useSession } from '@/shared/session/session';

/** Who is looking: the language (names are localized) and the user (watchlist flags). */
export function useViewer(): { lang: LangCode; userId: number | null; token: string | null } {
  const lang = useSession((s) => s.lang);
  const token = useSession((s) => s.token);
  const userId = useSession((s) => (s.token === null ? null : s.userId));
  return { lang, userId, token };
}
