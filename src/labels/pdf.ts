import {
  concatTransformationMatrix,
  PDFDocument,
  type PDFFont,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  StandardFonts,
} from 'pdf-lib';
import type { CodeView } from './describe.js';
import { type Layout, labelsPerPage, slotOf } from './layouts.js';
import { code128, dataMatrix, qrCode, type SymbolPaths } from './symbols.js';

// Label pages as PDF (docs/labels.md), with pdf-lib: one page per sheet (or per label on a roll). Symbols are vector
// paths from bwip-js, so they stay sharp at any printer's resolution. Text is Helvetica, which carries the Latin-1
// letters; any other character prints as "?" (the code, the symbol and the page are unaffected).

const black = rgb(0, 0, 0);

type Labelled = CodeView & { label_url: string };

/** Draws `s` into the box (left, top, width, height; top from the page's top), stretched to fill it. */
function drawSymbol(page: PDFPage, s: SymbolPaths, box: { x: number; y: number; width: number; height: number }) {
  const sx = box.width / s.width;
  const sy = box.height / s.height;
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(sx, 0, 0, sy, box.x, page.getHeight() - box.y));
  for (const d of s.fills) page.drawSvgPath(d, { x: 0, y: 0, color: black });
  for (const st of s.strokes) page.drawSvgPath(st.d, { x: 0, y: 0, borderColor: black, borderWidth: st.width });
  page.pushOperators(popGraphicsState());
}

function printable(font: PDFFont): (text: string) => string {
  const chars = new Set(font.getCharacterSet());
  return (text) =>
    [...text]
      .map((c) => {
        if (chars.has(c.codePointAt(0)!)) return c;
        const base = c.normalize('NFKD')[0];
        return base && chars.has(base.codePointAt(0)!) ? base : '?';
      })
      .join('');
}

/** `text` cut to `width` at `size`, with an ellipsis when cut. */
function fitText(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (font.widthOfTextAtSize(`${text.slice(0, mid)}…`, size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}

function drawLabel(
  page: PDFPage,
  l: Layout,
  at: { x: number; y: number },
  v: Labelled,
  fonts: { regular: PDFFont; bold: PDFFont },
  clean: (s: string) => string,
) {
  const top = (y: number, size: number) => page.getHeight() - (at.y + y) - size * 0.8;
  const { symbol, codeText, text } = l;
  const sym = symbol.kind === 'qrcode' ? qrCode(v.label_url) : dataMatrix(v.code);
  drawSymbol(page, sym, { x: at.x + symbol.x, y: at.y + symbol.y, width: symbol.size, height: symbol.size });
  page.drawText(v.code, { x: at.x + codeText.x, y: top(codeText.y, codeText.size), size: codeText.size, font: fonts.bold });
  if (l.code128) {
    const c = l.code128;
    drawSymbol(page, code128(v.code), { x: at.x + c.x, y: at.y + c.y, width: c.width, height: c.height });
  }
  let y = text.y;
  const title = fitText(fonts.bold, clean(v.title), text.titleSize, text.width);
  page.drawText(title, { x: at.x + text.x, y: top(y, text.titleSize), size: text.titleSize, font: fonts.bold });
  y += text.titleSize * 1.25;
  for (const line of v.lines.slice(0, text.maxLines)) {
    page.drawText(fitText(fonts.regular, clean(line), text.lineSize, text.width), {
      x: at.x + text.x,
      y: top(y, text.lineSize),
      size: text.lineSize,
      font: fonts.regular,
    });
    y += text.lineSize * 1.25;
  }
}

/** The labels on pages of `layout`, after `skip` blank places (a part-used sheet). */
export async function renderLabelsPdf(layout: Layout, views: Labelled[], skip = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Labels');
  doc.setProducer('Labstock');
  const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  const clean = printable(fonts.regular);
  const per = labelsPerPage(layout);
  const places = skip % per;
  let page: PDFPage | null = null;
  views.forEach((v, k) => {
    const slot = (places + k) % per;
    if (!page || slot === 0) page = doc.addPage([layout.page.width, layout.page.height]);
    drawLabel(page, layout, slotOf(layout, slot), v, fonts, clean);
  });
  if (!page) doc.addPage([layout.page.width, layout.page.height]);
  return doc.save({ useObjectStreams: false });
}
