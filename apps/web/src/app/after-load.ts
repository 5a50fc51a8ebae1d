/**
 * Runs `task` once the page's load event has passed (at once if it already has): for what must never compete
 * with the first screen's files on a slow line.
 */
export function afterLoad(task: () => void): void {
  if (document.readyState === 'complete') task();
  else
    window.addEventListener(
      'load',
      () => {
        task();
      },
      { once: true },
    );
}

/**
 * Runs `task` once, after the page's load, at the user's first touch, click or key, or `delayMs` after the
 * load, whichever comes first. For code that only follows a gesture (a dialog, a toast): the load event
 * comes before a page's data has arrived and been drawn, and the code must not share the line with it.
 */
export function afterLoadAtFirstUse(task: () => void, delayMs: number): void {
  afterLoad(() => {
    const events = ['pointerdown', 'keydown'] as const;
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      for (const type of events) window.removeEventListener(type, run, true);
      task();
    };
    const timer = setTimeout(run, delayMs);
    for (const type of events) window.addEventListener(type, run, { capture: true, passive: true });
  });
}
