import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const apiTarget = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  resolve: {
    // Resolve the workspace contract package from its TypeScript source.
    conditions: ['@kabuto/source', ...defaultClientConditions],
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5174,
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Pages are split by route; what every page shares (antd's core, zod, the contract with its six message
    // catalogues) stays one chunk of about 250 KB gzipped, loaded once by a desktop browser.
    chunkSizeWarningLimit: 900,
  },
});
