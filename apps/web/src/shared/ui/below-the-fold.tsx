import { useDeferredValue, type ReactNode } from 'react';

/**
 * Sections under a page's first screen: left out of the render that draws the page, and drawn right after it in
 * a background render that React splits and interrupts (issue 21). On a phone's slower CPU the page's first
 * render with everything was one long block of the main thread (up to 250 ms for the stock page); the user
 * sees the same page, and can tap the first screen while the rest is drawn. Put only what follows the first
 * screen in it, at the end of the page, so that nothing already drawn moves when it appears.
 */
export function BelowTheFold({ children }: { children: ReactNode }) {
  const drawn = useDeferredValue(true, false);
  return drawn ? children : null;
}
