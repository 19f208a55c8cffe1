// Prints the web application's initial JavaScript and CSS, gzipped and as brotli, after `vite build` (issue 13 keeps
// the JavaScript at or under 250 kB gzipped); fails the build when the JavaScript passes that, or when a file lacks
// the .br and .gz the build writes beside it (web/vite.config.ts) for `labstock serve` to send (src/server/web-app.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const LIMIT = 250 * 1024;
const dir = new URL('../dist/web/', import.meta.url);
const html = readFileSync(new URL('index.html', dir), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let js = 0;
let css = 0;
let br = 0;
for (const file of initial) {
  const size = gzipSync(readFileSync(new URL(file, dir))).length;
  br += statSync(new URL(`${file}.br`, dir)).size;
  if (file.endsWith('.js')) js += size;
  else css += size;
}
const assets = readdirSync(new URL('assets/', dir)).filter((f) => !/\.(?:br|gz)$/.test(f));
const missing = assets.filter(
  (f) => /\.(?:js|css|svg)$/.test(f) && !(existsSync(new URL(`assets/${f}.br`, dir)) && existsSync(new URL(`assets/${f}.gz`, dir))),
);
console.log(
  `web app: initial JavaScript ${(js / 1024).toFixed(1)} kB gzipped (limit ${LIMIT / 1024} kB), CSS ${(css / 1024).toFixed(1)} kB; ` +
    `both as brotli ${(br / 1024).toFixed(1)} kB; ${assets.length} files in dist/web/assets, each with .br and .gz`,
);
if (js > LIMIT) {
  console.error('web app: the initial JavaScript is over the limit');
  process.exit(1);
}
if (missing.length > 0) {
  console.error(`web app: no precompressed .br/.gz beside ${missing.join(', ')}`);
  process.exit(1);
}
