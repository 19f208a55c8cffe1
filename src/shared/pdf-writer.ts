import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import { embedPdfFonts, type PdfFonts } from './pdf-fonts.js';

// A plain A4 report written top to bottom (the controlled-substance reconciliation; the same shape as a count's report
// in src/stocktake/report.ts and the hazard report in src/inventory/hazard-report/files.ts, which could move onto it):
// lines of text cut with "…" to the page's width, tables with a header row that repeats on each new page, and
// signature lines. Text in DejaVu Sans Condensed (src/shared/pdf-fonts.ts): "µg", Greek and Cyrillic print as written.

export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 40;

export interface LineOptions {
  size?: number;
  bold?: boolean;
  /** Indent from the left margin, in points. */
  indent?: number;
  /** Space below the line, in points. */
  gap?: number;
}

export interface Column {
  header: string;
  /** Share of the usable width (the shares of a table add up to 1). */
  width: number;
  align?: 'left' | 'right';
}

export interface PdfWriter {
  doc: PDFDocument;
  fonts: PdfFonts;
  line: (text: string, opts?: LineOptions) => void;
  space: (points: number) => void;
  table: (columns: Column[], rows: string[][], opts?: { size?: number; boldRows?: Set<number> }) => void;
  signatures: (labels: string[]) => void;
  save: () => Promise<Uint8Array>;
}

const WIDTH = A4[0] - 2 * MARGIN;

/** `text` cut with "…" so that it fits `width` points. */
function cutToFit(fonts: PdfFonts, font: PDFFont, text: string, size: number, width: number): string {
  let t = fonts.printable(text);
  if (font.widthOfTextAtSize(t, size) <= width) return t;
  while (t.length > 1 && fonts.roughWidth(font, `${t}…`, size) > width) t = t.slice(0, -1);
  while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
  return `${t}…`;
}

/** `text` broken at spaces into lines that fit `width` points (a word longer than a line is cut); at most `max` lines. */
export function wrap(fonts: PdfFonts, font: PDFFont, text: string, size: number, width: number, max = 8): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of fonts.printable(text).split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    while (current.length > 1 && font.widthOfTextAtSize(current, size) > width) {
      let cut = current.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(current.slice(0, cut), size) > width) cut--;
      lines.push(current.slice(0, cut));
      current = current.slice(cut);
    }
  }
  if (current || lines.length === 0) lines.push(current);
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  kept[max - 1] = cutToFit(fonts, font, `${kept[max - 1]} ${lines[max]}`, size, width);
  return kept;
}

export async function pdfWriter(title: string): Promise<PdfWriter> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator('Labstock');
  const fonts = await embedPdfFonts(doc);
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  /** Room for `height` points on this page, or a new page; true when a page was added. */
  const room = (height: number): boolean => {
    if (y - height >= MARGIN) return false;
    page = doc.addPage(A4);
    y = A4[1] - MARGIN;
    return true;
  };
  const draw = (text: string, x: number, width: number, size: number, bold: boolean, align: 'left' | 'right' = 'left') => {
    const font = bold ? fonts.bold : fonts.regular;
    const t = cutToFit(fonts, font, text, size, width);
    const at = align === 'right' ? x + width - font.widthOfTextAtSize(t, size) : x;
    page.drawText(t, { x: at, y: y - size, size, font });
  };

  /** A line of text; longer than the page is wide, it wraps onto the next lines (up to 4). */
  const line = (text: string, opts: LineOptions = {}) => {
    const size = opts.size ?? 9;
    const indent = opts.indent ?? 0;
    const font = opts.bold ? fonts.bold : fonts.regular;
    for (const part of wrap(fonts, font, text, size, WIDTH - indent, 4)) {
      room(size + 2);
      draw(part, MARGIN + indent, WIDTH - indent, size, opts.bold ?? false);
      y -= size + 2;
    }
    y -= (opts.gap ?? 4) - 2;
  };

  const table = (columns: Column[], rows: string[][], opts: { size?: number; boldRows?: Set<number> } = {}) => {
    const size = opts.size ?? 8;
    const leading = size + 2;
    const pad = 3;
    /** Each cell's lines: a cell wraps within its column, the row is as tall as its tallest cell. */
    const linesOf = (cells: string[], bold: boolean) =>
      columns.map((c, i) => wrap(fonts, bold ? fonts.bold : fonts.regular, cells[i] ?? '', size, c.width * WIDTH - 2 * pad));
    const row = (cells: string[], bold: boolean) => {
      const lines = linesOf(cells, bold);
      const count = Math.max(...lines.map((l) => l.length));
      let x = MARGIN;
      const top = y;
      columns.forEach((c, i) => {
        const w = c.width * WIDTH;
        lines[i]!.forEach((text, n) => {
          y = top - n * leading;
          draw(text, x + pad, w - 2 * pad, size, bold, c.align);
        });
        x += w;
      });
      y = top - count * leading - 3;
    };
    const heightOf = (cells: string[], bold: boolean) => Math.max(...linesOf(cells, bold).map((l) => l.length)) * leading + 3;
    const header = () => {
      row(
        columns.map((c) => c.header),
        true,
      );
      page.drawLine({ start: { x: MARGIN, y: y + 2 }, end: { x: MARGIN + WIDTH, y: y + 2 }, thickness: 0.5, color: rgb(0.4, 0.4, 0.4) });
    };
    const headerHeight = heightOf(
      columns.map((c) => c.header),
      true,
    );
    room(headerHeight + heightOf(rows[0] ?? [], false));
    header();
    rows.forEach((cells, i) => {
      const bold = opts.boldRows?.has(i) ?? false;
      if (room(heightOf(cells, bold))) header();
      row(cells, bold);
    });
    y -= 4;
  };

  const signatures = (labels: string[]) => {
    room(labels.length * 44);
    for (const label of labels) {
      y -= 30;
      const half = WIDTH / 2 - 10;
      page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + half, y }, thickness: 0.5 });
      page.drawLine({ start: { x: MARGIN + half + 20, y }, end: { x: MARGIN + WIDTH, y }, thickness: 0.5 });
      y -= 2;
      draw(label, MARGIN, half, 8, false);
      const x = MARGIN + half + 20;
      draw('Date', x, half, 8, false);
      y -= 10;
    }
  };

  return {
    doc,
    fonts,
    line,
    space: (points) => {
      y -= points;
    },
    table,
    signatures,
    save: () => doc.save(),
  };
}
