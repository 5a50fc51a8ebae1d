import { useEffect, useRef } from 'react';
import { NavigationType, useBlocker } from 'react-router';

/**
 * Lets a page intercept back navigation (the navigation bar's arrow and the browser's back button both
 * go through the router's history "POP"). The handler returns true to keep the user on the page.
 */
export function useBackInterceptor(handler: () => boolean): void {
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  }, [handler]);
  const blocker = useBlocker(
    ({ historyAction }) => historyAction === NavigationType.Pop && handlerRef.current(),
  );
  useEffect(() => {
    if (blocker.state === 'blocked') blocker.reset();
  }, [blocker]);
}
