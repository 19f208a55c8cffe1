import * as mupdf from 'mupdf';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { embedPdfFonts } from './pdf-fonts.js';
import { pdfWriter, wrap } from './pdf-writer.js';

// The A4 report writer: text wraps rather than being cut (a record must not lose words), a word longer than a line
// is split, and a table that runs onto another page repeats its header there.

function pagesOf(pdf: Uint8Array): string[] {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return Array.from({ length: doc.countPages() }, (_, i) => doc.loadPage(i).toStructuredText('preserve-whitespace').asText());
  } finally {
    doc.destroy();
  }
}

describe('wrap', () => {
  it('breaks at spaces within the width, keeps every word, and splits a word longer than a line', async () => {
    const fonts = await embedPdfFonts(await PDFDocument.create());
    const text = 'drawn up in the procedure room for the surgery of cage 12, the rest returned to the safe';
    const lines = wrap(fonts, fonts.regular, text, 8, 120);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(fonts.regular.widthOfTextAtSize(l, 8)).toBeLessThanOrEqual(120);
    expect(lines.join(' ')).toBe(text);
    const long = wrap(fonts, fonts.regular, 'β'.repeat(80), 8, 60);
    expect(long.join('')).toBe('β'.repeat(80));
    for (const l of long) expect(fonts.regular.widthOfTextAtSize(l, 8)).toBeLessThanOrEqual(60);
    expect(wrap(fonts, fonts.regular, '', 8, 60)).toEqual(['']);
  });

  it('stops at `max` lines, the last one ending with "…"', async () => {
    const fonts = await embedPdfFonts(await PDFDocument.create());
    const lines = wrap(fonts, fonts.regular, 'word '.repeat(200), 8, 60, 3);
    expect(lines).toHaveLength(3);
    expect(lines[2]!.endsWith('…')).toBe(true);
  });
});

describe('pdfWriter', () => {
  it('a long table runs onto more pages with its header on each; signature lines follow', async () => {
    const w = await pdfWriter('Test');
    w.line('A title that is long enough to need a second line on an A4 page at this size, so it wraps onto it', { size: 15, bold: true });
    w.table(
      [
        { header: 'Number', width: 0.2, align: 'right' },
        { header: 'Text', width: 0.8 },
      ],
      Array.from({ length: 120 }, (_, i) => [String(i + 1), `row ${i + 1} Müller µL`]),
    );
    w.signatures(['Witness (name, signature)']);
    const pages = pagesOf(await w.save());
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages.slice(0, -1)) expect(p).toContain('Number');
    expect(pages.join('\n')).toContain('row 120 Müller µL');
    expect(pages.join('\n')).toContain('wraps onto it');
    expect(pages.at(-1)).toContain('Witness (name, signature)');
  });
});
