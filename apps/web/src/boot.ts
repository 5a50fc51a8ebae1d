/**
 * The script index.html loads (issue 21, ADR 0038's evening amendment): it lets the HTML's shell paint before
 * anything else is fetched, then imports the app (main.tsx, its styles and its code).
 *
 * Until this, index.html linked the app's stylesheets (render-blocking) and preloaded its twenty modules; a
 * phone on a slow line painted nothing until the styles had arrived, sharing the line with the scripts, and
 * Chromium held its first paint while those preloads were in flight. Now the HTML's own inline style is all
 * the first paint needs; the app's code and styles start downloading one frame later (Vite's loader applies
 * main's stylesheets before main runs, so nothing is shown unstyled).
 */
let started = false;

function start(): void {
  if (started) return;
  started = true;
  void import('./main');
}

// After the frame that paints the shell: a task queued from requestAnimationFrame runs once it is painted.
requestAnimationFrame(() => setTimeout(start, 0));
// A tab opened in the background paints no frames: start anyway.
setTimeout(start, 100);
