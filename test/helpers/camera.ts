// A fake camera for the scanning journeys (docs/scanning.md): a picture (a PNG, or the first page of a PDF) rendered
// with mupdf, drawn grey on white in the middle of a 640×480 frame and written as a one-frame Y4M file, which
// Chromium plays in a loop as its camera (--use-file-for-fake-video-capture). Y4M is plain: a header line, then per
// frame "FRAME\n" and the Y, U and V planes (4:2:0, so U and V at half size); a grey picture has U = V = 128.

import { writeFileSync } from 'node:fs';
import * as mupdf from 'mupdf';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM } from './browser.js';

const WIDTH = 640;
const HEIGHT = 480;

interface Grey {
  width: number;
  height: number;
  /** 0 (black) to 255 (white), row after row. */
  at(x: number, y: number): number;
}

function greyOf(pixmap: mupdf.Pixmap): Grey {
  const pixels = pixmap.getPixels();
  const stride = pixmap.getStride();
  const width = pixmap.getWidth();
  const channels = stride / width;
  const alpha = pixmap.getAlpha() ? 1 : 0;
  const colours = channels - alpha;
  return {
    width,
    height: pixmap.getHeight(),
    // Grey, or RGB weighted as luma; a transparent pixel is the white paper under it.
    at: (x, y) => {
      const i = y * stride + x * channels;
      const g = colours >= 3 ? 0.299 * pixels[i]! + 0.587 * pixels[i + 1]! + 0.114 * pixels[i + 2]! : pixels[i]!;
      const a = alpha ? pixels[i + colours]! / 255 : 1;
      return g * a + 255 * (1 - a);
    },
  };
}

/** The picture scaled (nearest pixel, so modules stay sharp) to `fill` of the frame's height, centred, as Y4M. */
function y4mOf(picture: Grey, fill: number): Buffer {
  const scale = Math.min((HEIGHT * fill) / picture.height, (WIDTH * 0.9) / picture.width);
  const w = Math.floor(picture.width * scale);
  const h = Math.floor(picture.height * scale);
  const left = Math.floor((WIDTH - w) / 2);
  const top = Math.floor((HEIGHT - h) / 2);
  const y = Buffer.alloc(WIDTH * HEIGHT, 235);
  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      const g = picture.at(Math.min(picture.width - 1, Math.floor(col / scale)), Math.min(picture.height - 1, Math.floor(row / scale)));
      y[(top + row) * WIDTH + left + col] = 16 + Math.round((219 * g) / 255);
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\nFRAME\n`), y, chroma]);
}

/** A PNG (a symbol bwip-js drew) as a camera file. */
export function pngToY4m(png: Uint8Array, file: string, fill = 0.6): string {
  writeFileSync(file, y4mOf(greyOf(new mupdf.Image(png).toPixmap()), fill));
  return file;
}

/** The first page of a PDF (a label sheet) rendered at 300 dpi, as a camera file. */
export function pdfToY4m(pdf: Uint8Array, file: string, fill = 0.9): string {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const page = doc.loadPage(0);
  const pixmap = page.toPixmap(mupdf.Matrix.scale(300 / 72, 300 / 72), mupdf.ColorSpace.DeviceGray, false);
  writeFileSync(file, y4mOf(greyOf(pixmap), fill));
  return file;
}

/** A Chromium of its own whose camera shows the file (the shared one has no camera); close it when done. */
export function launchWithCamera(y4m: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${y4m}`,
    ],
    handleSIGTERM: false,
  });
}
