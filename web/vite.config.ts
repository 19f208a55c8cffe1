import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web application (issue 13): built by `npm run build` into dist/web and served by `labstock serve` under /app/
// (src/server/web-app.ts). The typed client is taken from its source, so the app never waits for client/dist.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react()],
  resolve: { alias: { '@labstock/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // Hashed file names under assets/ are served as immutable (src/server/web-app.ts).
    assetsDir: 'assets',
    chunkSizeWarningLimit: 1024,
  },
  server: { proxy: { '^/(?!app/)': 'http://127.0.0.1:8080' } },
});
