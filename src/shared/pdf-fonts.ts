import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

// The typeface of every PDF Labstock writes (labels, a count's report): DejaVu Sans Condensed, a TrueType font with
// Latin, Greek, Cyrillic and many symbols ("µL", "α-tubulin", "β-mercaptoethanol", "Müller"), from the npm package
// dejavu-fonts-ttf (free to use and redistribute: its LICENSE, Bitstream Vera's terms with the DejaVu changes in the
// public domain). The standard Helvetica carried Latin-1 only. Embedded as a subset: only the glyphs a document
// uses go into it, so a sheet of labels grows by a few kilobytes, not the font's 680 kB. It has no Chinese,
// Japanese or Korean glyphs: such characters are replaced (docs/labels.md "Text").

const require = createRequire(import.meta.url);

const FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf',
} as const;

// Read once per process: the files do not change while it runs, and every PDF needs them.
const bytes = new Map<keyof typeof FILES, Uint8Array>();
const fontBytes = (which: keyof typeof FILES): Uint8Array => {
  let b = bytes.get(which);
  if (!b) {
    b = readFileSync(require.resolve(FILES[which]));
    bytes.set(which, b);
  }
  return b;
};

// A character's advance at size 1, per face, learnt once per process: pdf-lib measures a custom font's text by laying
// it out with fontkit, which a label's fitting (many trial cuts per line) would otherwise repeat thousands of times.
const advances = { regular: new Map<string, number>(), bold: new Map<string, number>() };
let characters: Set<number> | null = null;

export interface PdfFonts {
  regular: PDFFont;
  bold: PDFFont;
  /** `text` with what the font cannot draw replaced: an accented letter by its base letter, anything else by "?". */
  printable: (text: string) => string;
  /**
   * The width of `text` at `size` as the sum of its characters' advances: without kerning, so within a few
   * hundredths of what pdf-lib's `widthOfTextAtSize` answers; for trying cuts, then checked with the exact width.
   */
  roughWidth: (font: PDFFont, text: string, size: number) => number;
}

// OpenType layout features off: kerning, ligatures and mark positioning are invisible at a label's 5-7 points, and
// fontkit's shaping of every line was most of a 300-label sheet's time (three times the Helvetica sheet's CPU).
// Text is composed (NFC) before it is drawn, so an accented letter is its own precomposed glyph, not a mark to place.
const NO_FEATURES = ['kern', 'liga', 'calt', 'clig', 'ccmp', 'locl', 'mark', 'mkmk', 'rlig'];
const features = () => Object.fromEntries(NO_FEATURES.map((f) => [f, false]));

/** Embeds the regular and bold faces into `doc`, subset. */
export async function embedPdfFonts(doc: PDFDocument): Promise<PdfFonts> {
  doc.registerFontkit(fontkit);
  // A fresh object each time: pdf-lib keeps (and completes) the one it is given.
  const regular = await doc.embedFont(fontBytes('regular'), { subset: true, features: features() });
  const bold = await doc.embedFont(fontBytes('bold'), { subset: true, features: features() });
  // What both faces draw: the bold face lacks a few of the regular one's rarer symbols, and a title is in bold.
  if (!characters) {
    const inBold = new Set(bold.getCharacterSet());
    characters = new Set(regular.getCharacterSet().filter((c) => inBold.has(c)));
  }
  const chars = characters;
  const printable = (text: string) =>
    [...text.normalize('NFC')]
      .map((c) => {
        if (chars.has(c.codePointAt(0)!)) return c;
        const base = c.normalize('NFKD')[0];
        return base && chars.has(base.codePointAt(0)!) ? base : '?';
      })
      .join('');
  const roughWidth = (font: PDFFont, text: string, size: number) => {
    const known = font === bold ? advances.bold : advances.regular;
    let sum = 0;
    for (const c of text) {
      let a = known.get(c);
      if (a === undefined) {
        a = font.widthOfTextAtSize(c, 1);
        known.set(c, a);
      }
      sum += a;
    }
    return sum * size;
  };
  return { regular, bold, printable, roughWidth };
}
