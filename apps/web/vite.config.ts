import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { moduleSizes } from './build/module-sizes.ts';
import { preloadHelper } from './build/preload-helper.ts';
import { serviceWorker } from './sw/plugin.ts';

const apiTarget = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/japan1/',
  plugins: [
    // every dynamic import's chunks announced a few per task, not all in the one that asks (ADR 0060)
    preloadHelper(fileURLToPath(new URL('./src/app/preload.ts', import.meta.url))),
    react(),
    // The modules of each chunk and their sizes, and what each chunk imports, for the first-load size check
    // (scripts/first-load.mjs).
    moduleSizes(
      fileURLToPath(new URL('./.vite/module-sizes.json', import.meta.url)),
      fileURLToPath(new URL('./.vite/chunk-graph.json', import.meta.url)),
    ),
    // the installable app's service worker, dist/sw.js (issue 21, ADR 0039)
    serviceWorker(),
  ],
  resolve: {
    // Resolve the workspace contract package from its TypeScript source.
    conditions: ['@kabuto/source', ...defaultClientConditions],
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, ws: true, changeOrigin: true },
      '/ws': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    // every browser the app supports has <link rel="modulepreload">: no polyfill in the first load
    modulePreload: { polyfill: false },
    emptyOutDir: true,
    // zod probes `new Function` when it builds its first object schema, which the Content-Security-Policy
    // (script-src 'self', no 'unsafe-eval') blocks and reports as a violation. It reads its settings from
    // globalThis.__zod_globalConfig, so every chunk starts by asking for jitless schemas: whichever chunk runs
    // first sets it before zod's code runs (ADR 0032).
    rolldownOptions: {
      output: {
        intro: 'globalThis.__zod_globalConfig??={jitless:true};',
        // The libraries every page runs on (React, TanStack Query, i18next) in one chunk, not in the
        // dozens of sub-kilobyte chunks that automatic splitting cut from them for each set of pages sharing a
        // piece: on a phone's line each chunk costs a request, and the app's start waited on 22 of them. The
        // group holds nothing a first load did not already fetch (the size check measures the same 147 KiB), and
        // it changes only when a library does (ADR 0054).
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              // react-i18next's <Trans> and the HTML parser it brings (about 7 KiB gzipped) serve two pages, login
              // and settings: they stay in those pages' chunks.
              test: (id: string) =>
                /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/]query-core|@tanstack[\\/]react-query|i18next|react-i18next|use-sync-external-store|classnames)[\\/]/.test(
                  id,
                ) && !/react-i18next[\\/]dist[\\/]es[\\/](Trans|TransWithoutContext|unescape)\.js$/.test(id),
            },
          ],
        },
      },
    },
  },
});
