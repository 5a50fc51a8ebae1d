import type { Plugin } from 'vite';

/** The module Vite's build makes every dynamic `import()` import its loader from. */
const HELPER_ID = '\0vite/preload-helper.js';

/**
 * Puts the app's own loader (src/app/preload.ts, ADR 0060) where Vite's build looks for its preload helper. Vite
 * still writes each import's list of chunks and stylesheets; only the code that announces them is ours, and it
 * keeps Vite's export (`__vitePreload`) and arguments. Applied first (`enforce: 'pre'`), so Vite's own is never
 * loaded; scripts/first-load.mjs's check fails the build's tests if Vite's helper comes back.
 */
export function preloadHelper(helperFile: string): Plugin {
  return {
    name: 'kabuto:preload-helper',
    apply: 'build',
    enforce: 'pre',
    resolveId(id) {
      return id === HELPER_ID ? id : null;
    },
    load(id) {
      if (id !== HELPER_ID) return null;
      return {
        code: `export { preload as __vitePreload } from ${JSON.stringify(helperFile)};`,
        moduleSideEffects: false,
      };
    },
  };
}
