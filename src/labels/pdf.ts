import {
  concatTransformationMatrix,
  fill,
  PDFDocument,
  type PDFFont,
  type PDFOperator,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
} from 'pdf-lib';
import { embedPdfFonts, type PdfFonts } from '../shared/pdf-fonts.js';
import type { CodeView } from './describe.js';
import type { LabelHazards } from './hazards.js';
import { type Layout, labelsPerPage, slotOf } from './layouts.js';
import { drawPictogram } from './pictograms.js';
import { type Bars, code128, dataMatrix, type Matrix, qrCode } from './symbols.js';

// Label pages as PDF (docs/labels.md), with pdf-lib: one page per sheet (or per label on a roll). The symbols'
// modules and bars, as their libraries answer them (src/labels/symbols.ts), are painted as filled rectangles (a row's
// neighbouring dark modules as one), so they stay sharp at any printer's resolution and a sheet stays small. Text is
// DejaVu Sans Condensed, embedded as a subset (src/shared/pdf-fonts.ts): Latin, Greek, Cyrillic; a character it lacks
// prints as "?" (the code, the symbol and the page are unaffected).

type Labelled = CodeView & { label_url: string; hazards?: LabelHazards };

type Box = { x: number; y: number; width: number; height: number };

/**
 * The 2-D symbol `m` filling the box (left, top, size; top from the page's top). Drawn in module units under one
 * transformation (y downwards), so every rectangle is four small integers: the numbers are most of a sheet's bytes.
 */
function paintMatrix(page: PDFPage, m: Matrix, box: Box) {
  const ops: PDFOperator[] = [
    pushGraphicsState(),
    concatTransformationMatrix(box.width / m.columns, 0, 0, -box.height / m.rows, box.x, page.getHeight() - box.y),
  ];
  for (let r = 0; r < m.rows; r++) {
    for (let c = 0; c < m.columns; ) {
      if (!m.dark(c, r)) {
        c++;
        continue;
      }
      const start = c;
      while (c < m.columns && m.dark(c, r)) c++;
      ops.push(rectangle(start, r, c - start, 1));
    }
  }
  page.pushOperators(...ops, fill(), popGraphicsState());
}

/** A hundredth of an inch, in points: a whole number of dots at 100, 200, 300, 600 and 1200 dpi. */
const GRID = 0.72;

/**
 * The bars of `b` in the box, in module units too. A module is a whole number of hundredths of an inch where the code
 * fits at one or more (10 mil, the usual X-dimension), and the first bar starts on that grid: every bar and space is
 * then a whole number of the printer's dots, where a module stretched to the box (0.8-0.9 pt, 2.2-2.4 dots at 200 dpi)
 * printed bars of uneven widths and some codes did not scan. A code too long for that is stretched to the box.
 */
function paintBars(page: PDFPage, b: Bars, box: Box) {
  const grid = Math.floor(box.width / b.width / GRID) * GRID;
  const module = grid > 0 ? grid : box.width / b.width;
  let x = box.x;
  if (grid > 0) {
    x = Math.ceil(box.x / GRID) * GRID;
    if (x + module * b.width > box.x + box.width) x = Math.floor(box.x / GRID) * GRID;
  }
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(module, 0, 0, -box.height, x, page.getHeight() - box.y),
    ...b.bars.map(([at, width]) => rectangle(at, 0, width, 1)),
    fill(),
    popGraphicsState(),
  );
}

/**
 * `text` cut to `width` at `size`, with an ellipsis where cut: at the end, or for a location path (" / ") at the
 * start, so the shelf and the box stay on the label rather than the building. A text whose rough width
 * (src/shared/pdf-fonts.ts) is well inside stays whole; cuts are tried on the rough width and the one chosen is
 * checked with the exact width; a character is never split.
 */
function fitText(fonts: PdfFonts, font: PDFFont, text: string, size: number, width: number): string {
  const exact = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  if (fonts.roughWidth(font, text, size) <= width * 0.95 || exact(text)) return text;
  const chars = [...text];
  const fromStart = text.includes(' / ');
  const cut = (n: number) => (fromStart ? `…${chars.slice(chars.length - n).join('')}` : `${chars.slice(0, n).join('')}…`);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fonts.roughWidth(font, cut(mid), size) <= width) lo = mid;
    else hi = mid - 1;
  }
  while (lo > 0 && !exact(cut(lo))) lo--;
  return cut(lo);
}

function drawLabel(page: PDFPage, l: Layout, at: { x: number; y: number }, v: Labelled, fonts: PdfFonts) {
  const clean = fonts.printable;
  const top = (y: number, size: number) => page.getHeight() - (at.y + y) - size * 0.8;
  const { symbol, codeText, text } = l;
  const sym = symbol.kind === 'qrcode' ? qrCode(v.label_url) : dataMatrix(v.code);
  paintMatrix(page, sym, { x: at.x + symbol.x, y: at.y + symbol.y, width: symbol.size, height: symbol.size });
  page.drawText(v.code, { x: at.x + codeText.x, y: top(codeText.y, codeText.size), size: codeText.size, font: fonts.bold });
  if (l.code128) {
    const c = l.code128;
    paintBars(page, code128(v.code), { x: at.x + c.x, y: at.y + c.y, width: c.width, height: c.height });
  }
  let y = text.y;
  const title = fitText(fonts, fonts.bold, clean(v.title), text.titleSize, text.width);
  page.drawText(title, { x: at.x + text.x, y: top(y, text.titleSize), size: text.titleSize, font: fonts.bold });
  y += text.titleSize * 1.25;
  // A reagent's hazards take the place of the lines below their row (the lab's name goes first).
  const row = l.hazards && v.hazards ? l.hazards : null;
  let lines = v.lines.slice(0, text.maxLines);
  if (row) {
    const fit = Math.max(0, Math.floor((row.y - y - text.lineSize) / (text.lineSize * 1.25)) + 1);
    lines = lines.slice(0, fit);
    drawHazards(page, row, at, v.hazards!, fonts);
  }
  for (const line of lines) {
    page.drawText(fitText(fonts, fonts.regular, clean(line), text.lineSize, text.width), {
      x: at.x + text.x,
      y: top(y, text.lineSize),
      size: text.lineSize,
      font: fonts.regular,
    });
    y += text.lineSize * 1.25;
  }
}

/**
 * The pictograms side by side and the signal word after them, in bold: as many diamonds as leave room for the word
 * (a label with more hazards than fit keeps the first ones, which the rules table orders most severe first).
 */
function drawHazards(page: PDFPage, row: NonNullable<Layout['hazards']>, at: { x: number; y: number }, h: LabelHazards, fonts: PdfFonts) {
  const wordSize = Math.min(8, row.size * 0.55);
  const word = h.signalWord ?? '';
  const wordWidth = word ? fonts.bold.widthOfTextAtSize(word, wordSize) + 2 : 0;
  const room = Math.max(0, Math.floor((row.width - wordWidth + 1) / (row.size + 1)));
  const shown = h.pictograms.slice(0, room);
  shown.forEach((code, k) => {
    drawPictogram(page, code, at.x + row.x + k * (row.size + 1), at.y + row.y, row.size);
  });
  if (word) {
    const x = at.x + row.x + shown.length * (row.size + 1) + (shown.length ? 1 : 0);
    const y = page.getHeight() - (at.y + row.y + row.size / 2) - wordSize * 0.35;
    page.drawText(word, { x, y, size: wordSize, font: fonts.bold });
  }
}

/** The labels on pages of `layout`, after `skip` blank places (a part-used sheet). */
export async function renderLabelsPdf(layout: Layout, views: Labelled[], skip = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Labels');
  doc.setProducer('Labstock');
  const fonts = await embedPdfFonts(doc);
  const per = labelsPerPage(layout);
  const places = skip % per;
  let page: PDFPage | null = null;
  views.forEach((v, k) => {
    const slot = (places + k) % per;
    if (!page || slot === 0) page = doc.addPage([layout.page.width, layout.page.height]);
    drawLabel(page, layout, slotOf(layout, slot), v, fonts);
  });
  if (!page) doc.addPage([layout.page.width, layout.page.height]);
  return doc.save({ useObjectStreams: false });
}
