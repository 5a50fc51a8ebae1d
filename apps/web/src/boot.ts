/**
 * The script index.html loads (issue 21, ADR 0038's evening amendment): it lets the HTML's shell paint before
 * anything else is fetched, then imports the app (main.tsx, its styles and its code).
 *
 * Until this, index.html linked the app's stylesheets (render-blocking) and preloaded its twenty modules; a
 * phone on a slow line painted nothing until the styles had arrived, sharing the line with the scripts, and
 * Chromium held its first paint while those preloads were in flight. Now the HTML's own inline style is all
 * the first paint needs; the app's code and styles start downloading one frame later (Vite's loader applies
 * main's stylesheets before main runs, so nothing is shown unstyled).
 *
 * With the app it starts what the first render will wait for: the code of the page the address opens, and the
 * stored language's UI catalogue (and its contract messages, unless the page is one of the first screens that
 * show none: ADR 0059). They download while the app's libraries arrive and run, instead of after
 * main.tsx has run and asked for them (one round trip and the libraries' start-up less before the page paints
 * on a phone). main.tsx's own requests for them find them loading or loaded. Before them it sends the reads the
 * page's largest paint waits for (app/first-reads.ts, ADR 0058), which the page's queries then take.
 */
import { loadContractMessages } from '@kabuto/client/catalogues';
import { localeOf } from '@kabuto/contract/lang';
import { startFirstReads } from './app/first-reads';
import { preloadPage } from './app/pages';
import { loadUiCatalogue } from './locales/load';
import { storedLang, storedToken } from './shared/session/storage-keys';

let started = false;

/*
 * Both storage areas are first read here, as the script runs, before the app's requests are in flight. A
 * storage area's first read in a page is a synchronous round trip to the browser process, which hands over the
 * whole area; later reads use the page's copy. Read from the steps below, once seventy requests were under
 * way, the catalogues' step took 8 ms (median of 40 Lighthouse runs), 27 ms at the 90th percentile and up to
 * 54 ms, four times that on the simulated phone; read here, 3, 9 and 16 ms (issue 21). The router reads
 * sessionStorage as it starts (scroll positions).
 */
const lang = storedLang();
const locale = localeOf(lang);
try {
  sessionStorage.getItem('');
} catch {
  // storage blocked: the router does without it too
}

/**
 * Runs each step in a task of its own: each import's loader appends a link to the document for every file the
 * import needs (about seventy for a page), and in one task they made a 40 ms block of the main thread, 160 ms
 * on a phone's slower CPU.
 */
function inTurn(steps: (() => void)[]): void {
  const [step, ...rest] = steps;
  if (step === undefined) return;
  step();
  if (rest.length > 0) {
    setTimeout(() => {
      inTurn(rest);
    }, 0);
  }
}

function start(): void {
  if (started) return;
  started = true;
  // The first page's data, before its code: on a phone its round trip then overlaps the code's download.
  const token = storedToken();
  startFirstReads(window.location.hash, lang, token);
  inTurn([
    () => void import('./main'),
    () => {
      // a page other than the first-screen ones waits for the contract's messages too (ADR 0059)
      preloadPage(window.location.hash, {
        loadContract: () => loadContractMessages(locale),
        signedIn: token !== null,
      });
    },
    () => void loadUiCatalogue(locale).catch(() => undefined),
    warmUp,
  ]);
}

/**
 * A one-time cost of a page's life paid while the line is busy and the CPU idle, instead of in the page's first
 * render: the first number format loads the language's number data (18-44 ms in Chromium here; four times that
 * on a phone's slower CPU; issue 21).
 */
function warmUp(): void {
  new Intl.NumberFormat(locale).format(0);
}

// After the frame that paints the shell: a task queued from requestAnimationFrame runs once it is painted.
requestAnimationFrame(() => setTimeout(start, 0));
// A tab opened in the background paints no frames: start anyway.
setTimeout(start, 100);
