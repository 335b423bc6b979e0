/**
 * The agent console's build: `console/` → `dist/console/` (scripts/build.mjs
 * passes the out dir). Every asset goes to `assets/` with a content hash, so
 * Parley serves that folder as immutable and `index.html` as no-cache.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline script or data: module: the page is served with CSP script-src 'self'.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: {
    // `npx vite console` during development: the API and the socket live on Parley.
    proxy: {
      '/api': 'http://localhost:3000',
      '/livechat': 'http://localhost:3000',
      '/avatar': 'http://localhost:3000',
      '/websocket': { target: 'ws://localhost:3000', ws: true },
    },
  },
});
