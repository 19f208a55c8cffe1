import bwipjs from 'bwip-js';
import QRCode from 'qrcode';

// The symbols on a label, encoded by maintained libraries (docs/labels.md): the QR code by `qrcode`, the DataMatrix
// and the Code 128 by bwip-js. They answer the dark modules (2-D) or the bar and space widths (Code 128); the PDF
// paints those as they are (src/labels/pdf.ts). Nothing here encodes a symbol. `qrcode` rather than bwip-js for the
// QR code: bwip-js runs the PostScript encoder, about ten times slower, and a 300-label sheet must take under 2 s.

/** A 2-D symbol: `size` × `size` modules, row by row from the top, true for dark. */
export interface Matrix {
  columns: number;
  rows: number;
  dark: (column: number, row: number) => boolean;
}

/** A 1-D symbol: bars as [start, width] in modules, and the whole width. */
export interface Bars {
  width: number;
  bars: [number, number][];
}

/** A QR code of `text`, error correction M (15 % of the symbol may be damaged). */
export function qrCode(text: string): Matrix {
  const m = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  return { columns: m.size, rows: m.size, dark: (c, r) => m.data[r * m.size + c] === 1 };
}

type RawMatrix = { pixs: number[]; pixx: number; pixy: number };
type RawBars = { sbs: number[] };

/** A square DataMatrix of `text`. */
export function dataMatrix(text: string): Matrix {
  const [m] = bwipjs.raw({ bcid: 'datamatrix', text }) as RawMatrix[];
  if (!m) throw new Error('bwip-js made no DataMatrix');
  return { columns: m.pixx, rows: m.pixy, dark: (c, r) => m.pixs[r * m.pixx + c] === 1 };
}

/** A Code 128 of `text` (bwip-js picks the code sets), without its quiet zones. */
export function code128(text: string): Bars {
  const [raw] = bwipjs.raw({ bcid: 'code128', text }) as RawBars[];
  if (!raw) throw new Error('bwip-js made no Code 128');
  const bars: [number, number][] = [];
  let at = 0;
  // sbs: bar, space, bar, … widths in modules.
  raw.sbs.forEach((w, k) => {
    if (k % 2 === 0) bars.push([at, w]);
    at += w;
  });
  return { width: at, bars };
}
