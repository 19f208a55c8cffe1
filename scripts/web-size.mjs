// Prints the web application's initial JavaScript and CSS, gzipped, after `vite build` (issue 13 keeps the JavaScript
// at or under 250 kB gzipped); fails the build when the JavaScript passes that.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const LIMIT = 250 * 1024;
const dir = new URL('../dist/web/', import.meta.url);
const html = readFileSync(new URL('index.html', dir), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let js = 0;
let css = 0;
for (const file of initial) {
  const size = gzipSync(readFileSync(new URL(file, dir))).length;
  if (file.endsWith('.js')) js += size;
  else css += size;
}
const all = readdirSync(new URL('assets/', dir)).length;
console.log(
  `web app: initial JavaScript ${(js / 1024).toFixed(1)} kB gzipped (limit ${LIMIT / 1024} kB), CSS ${(css / 1024).toFixed(1)} kB, ${all} files in dist/web/assets`,
);
if (js > LIMIT) {
  console.error('web app: the initial JavaScript is over the limit');
  process.exit(1);
}
