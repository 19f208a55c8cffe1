import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('../dist/web', import.meta.url));

/**
 * Brotli and gzip beside every text file of the build (name.js.br, name.js.gz), at the highest levels, once at build
 * time: `labstock serve` sends whichever the browser accepts (src/server/web-app.ts, `preCompressed`), so a cold load
 * moves about a fifth of the bytes (docs/performance.md) and the server compresses nothing per request.
 */
function precompress(): Plugin {
  const TEXT = /\.(?:js|css|html|svg|json|txt|map)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
  return {
    name: 'labstock-precompress',
    apply: 'build',
    closeBundle() {
      for (const file of walk(outDir).filter((f) => TEXT.test(f))) {
        const body = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

// The web application (issue 13): built by `npm run build` into dist/web and served by `labstock serve` under /app/
// (src/server/web-app.ts). The typed client is taken from its source, so the app never waits for client/dist.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react(), precompress()],
  resolve: { alias: { '@labstock/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) } },
  build: {
    outDir,
    emptyOutDir: true,
    // Hashed file names under assets/ are served as immutable (src/server/web-app.ts).
    assetsDir: 'assets',
    chunkSizeWarningLimit: 1024,
  },
  server: { proxy: { '^/(?!app/)': 'http://127.0.0.1:8080' } },
});
