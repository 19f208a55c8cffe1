// Reads labels back as a scanner would (docs/labels.md): a PDF page rendered by MuPDF (wasm), its symbols decoded by
// ZXing-C++ (wasm), both from their npm packages, with nothing fetched from the network.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as mupdf from 'mupdf';
import { prepareZXingModule, type ReadResult, readBarcodes } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);
prepareZXingModule({
  overrides: { wasmBinary: readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm')).buffer as ArrayBuffer },
});

/** How many pages the PDF has. */
export function pageCount(pdf: Uint8Array): number {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return doc.countPages();
  } finally {
    doc.destroy();
  }
}

/** Page `index` at `dpi`, as RGBA pixels (and as a PNG, to look at). */
export function renderPage(pdf: Uint8Array, index: number, dpi: number) {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    const page = doc.loadPage(index);
    // Without alpha: a PDF page has no background of its own, and transparent pixels would read as black.
    const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false);
    const rgb = pix.getPixels();
    const data = new Uint8ClampedArray((rgb.length / 3) * 4);
    for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
      data[j] = rgb[i]!;
      data[j + 1] = rgb[i + 1]!;
      data[j + 2] = rgb[i + 2]!;
      data[j + 3] = 255;
    }
    const image = { data, width: pix.getWidth(), height: pix.getHeight(), colorSpace: 'srgb' as const };
    const png = pix.asPNG();
    pix.destroy();
    page.destroy();
    return { image, png };
  } finally {
    doc.destroy();
  }
}

/** Every symbol ZXing finds in the picture. */
export async function decode(image: { data: Uint8ClampedArray; width: number; height: number }): Promise<ReadResult[]> {
  return readBarcodes(image as unknown as Parameters<typeof readBarcodes>[0], {
    formats: ['QRCode', 'DataMatrix', 'Code128'],
    maxNumberOfSymbols: 255,
    tryHarder: true,
  });
}

/** The text of page `index` as a PDF reader extracts it (MuPDF), lines as drawn. */
export function pageText(pdf: Uint8Array, index = 0): string {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return doc.loadPage(index).toStructuredText('preserve-whitespace').asText();
  } finally {
    doc.destroy();
  }
}
