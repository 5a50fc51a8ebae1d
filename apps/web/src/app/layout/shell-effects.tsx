import { lazy, Suspense } from 'react';
import { useSession } from '@/shared/session/session';
import { StaleQuotesBanner } from './stale-quotes-banner';

/** The signed-in user's live events (user-events.tsx), their own chunk. */
const UserEvents = lazy(() => import('./user-events'));

/**
 * What the layout does besides drawing: the stale-quotes line, and while signed in the user's live events
 * (fills, margin calls, messages). It needs the realtime connection, so it is loaded after the first paint
 * (app-layout.tsx loads it lazily), keeping it out of the first load; the live events' code comes only with a
 * session (issue 21).
 */
export default function ShellEffects() {
  const signedIn = useSession((s) => s.token !== null);
  return (
    <>
      <StaleQuotesBanner />
      {signedIn && (
        <Suspense fallback={null}>
          <UserEvents />
        </Suspense>
      )}
    </>
  );
}
