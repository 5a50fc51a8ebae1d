import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const apiTarget = 'http://127.0.0.1:8080';

/**
 * react-router exports only its development build, whose warnings (and the strings they build on every render)
 * ship to production (remix-run/react-router#12532, #14102): `vite build` takes its production build instead,
 * the same code with ENABLE_DEV_WARNINGS false.
 */
const reactRouterProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ command }) => ({
  base: '/console/',
  plugins: [react()],
  resolve: {
    // Resolve the workspace contract package from its TypeScript source.
    conditions: ['@kabuto/source', ...defaultClientConditions],
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  server: {
    port: 5174,
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // zod probes `new Function` when it builds its first object schema, which the Content-Security-Policy
    // (script-src 'self', no 'unsafe-eval') blocks and reports as a violation. It reads its settings from
    // globalThis.__zod_globalConfig, so every chunk starts by asking for jitless schemas: whichever chunk runs
    // first sets it before zod's code runs (ADR 0032).
    rolldownOptions: { output: { intro: 'globalThis.__zod_globalConfig??={jitless:true};' } },
    // Pages are split by route; what every page shares (antd's core, zod, the contract with its six message
    // catalogues) stays one chunk of about 250 KB gzipped, loaded once by a desktop browser.
    chunkSizeWarningLimit: 900,
  },
}));
