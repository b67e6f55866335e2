import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web console, built into dist/apps/dashboard/web (served by the dashboard server, which
 * relays /api to the edge). `vite --config apps/dashboard/web/vite.config.mts` serves it for
 * development, relaying /api to EDGE_URL (default http://127.0.0.1:8080).
 */
export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../../dist/apps/dashboard/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/api': { target: process.env.EDGE_URL ?? 'http://127.0.0.1:8080', changeOrigin: false },
      '/up': { target: process.env.EDGE_URL ?? 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
});
