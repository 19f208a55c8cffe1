import * as mupdf from 'mupdf';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { embedPdfFonts } from './pdf-fonts.js';

// The text a PDF reader extracts (MuPDF, as test/api/labels/_decode.ts uses it) is what the font drew: the subset
// font's ToUnicode map carries every glyph back to its character.
function textOf(pdf: Uint8Array): string {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return doc.loadPage(0).toStructuredText('preserve-whitespace').asText();
  } finally {
    doc.destroy();
  }
}

const WORDS = ['α-tubulin', 'β-mercaptoethanol', '100 µL', 'Müller', 'Жёлтый', 'Ωmega', 'Ångström', 'Łódź'];

describe('embedPdfFonts', () => {
  it('prints Greek, Cyrillic, µ and Latin accents in both faces, and a reader gets them back', async () => {
    const doc = await PDFDocument.create();
    const fonts = await embedPdfFonts(doc);
    const page = doc.addPage([400, 300]);
    WORDS.forEach((w, k) => {
      expect(fonts.printable(w)).toBe(w);
      page.drawText(fonts.printable(w), { x: 10, y: 280 - k * 14, size: 10, font: k % 2 ? fonts.bold : fonts.regular });
    });
    const text = textOf(await doc.save());
    for (const w of WORDS) expect(text).toContain(w);
  });

  it('replaces what the font lacks: an accented letter by its letter, anything else by "?"', async () => {
    const fonts = await embedPdfFonts(await PDFDocument.create());
    // Chinese, Japanese, Korean and Thai are not in DejaVu Sans; the replacement keeps the rest of the line.
    expect(fonts.printable('抗体 IgG')).toBe('?? IgG');
    expect(fonts.printable('한 ok')).toBe('? ok');
    expect(fonts.printable('ไทย')).toBe('???');
  });

  it('keeps only what both faces draw, since a title is bold and a line regular', async () => {
    const fonts = await embedPdfFonts(await PDFDocument.create());
    const bold = new Set(fonts.bold.getCharacterSet());
    const onlyRegular = fonts.regular.getCharacterSet().find((c) => !bold.has(c) && c > 0x7f);
    expect(onlyRegular).toBeDefined();
    expect(fonts.printable(String.fromCodePoint(onlyRegular!))).toBe('?');
  });

  it('embeds a subset: a page of a few words stays small', async () => {
    const doc = await PDFDocument.create();
    const fonts = await embedPdfFonts(doc);
    doc.addPage([200, 100]).drawText('α-tubulin', { x: 10, y: 50, size: 10, font: fonts.regular });
    const bytes = await doc.save();
    // The whole regular face is 680 kB; its subset for nine characters a few kB.
    expect(bytes.length).toBeLessThan(40_000);
  });
});
