// Renders web/public/favicon.svg (the mark, docs/web.md "Brand") to the PNG and ICO files browsers and tools take
// when they take no SVG icon: favicon-32.png, apple-touch-icon.png (180 px) and favicon.ico (16 and 32 px PNGs in
// an ICO container, which every browser since Windows Vista's reads). Run after changing the SVG; the outputs are
// committed. Uses Debian's Chromium, as the browser journeys do.
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const dir = new URL('../web/public/', import.meta.url);
const svg = readFileSync(new URL('favicon.svg', dir), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
async function png(size) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}</style><img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" width="${size}" height="${size}">`,
  );
  const shot = await page.screenshot({ omitBackground: true });
  await page.close();
  return shot;
}
const [p16, p32, p180] = [await png(16), await png(32), await png(180)];
await browser.close();
writeFileSync(new URL('favicon-32.png', dir), p32);
writeFileSync(new URL('apple-touch-icon.png', dir), p180);
// ICONDIR (6 bytes), one ICONDIRENTRY (16 bytes) per image, then the PNGs.
const images = [
  [16, p16],
  [32, p32],
];
const header = Buffer.alloc(6 + 16 * images.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(images.length, 4);
let offset = header.length;
images.forEach(([size, data], i) => {
  const at = 6 + 16 * i;
  header.writeUInt8(size, at);
  header.writeUInt8(size, at + 1);
  header.writeUInt16LE(1, at + 4); // colour planes
  header.writeUInt16LE(32, at + 6); // bits per pixel
  header.writeUInt32LE(data.length, at + 8);
  header.writeUInt32LE(offset, at + 12);
  offset += data.length;
});
writeFileSync(new URL('favicon.ico', dir), Buffer.concat([header, ...images.map(([, data]) => data)]));
console.log('web/public: favicon-32.png, apple-touch-icon.png, favicon.ico');
