// The label stocks a print request may choose (docs/labels.md "Layouts"). Lengths in PDF points (1/72 inch).
//
// Each label carries a 2-D symbol and the code in letters; those with room for it also a Code 128 of the code (a
// fallback for 1-D scanners) and the human-readable lines. The QR code holds the app URL (APP_URL/app/c/{code}), so
// any phone's camera opens the page; the cryo-vial label is too small for a readable URL symbol and holds a
// DataMatrix of the code alone, which the scan page and any wedge scanner read as well.

export interface Layout {
  name: 'sheet-30' | 'cryo' | 'roll-2x1';
  title: string;
  description: string;
  /** The page; a roll's page is one label. */
  page: { width: number; height: number };
  label: { width: number; height: number };
  columns: number;
  rows: number;
  /** The top-left label's corner, from the page's top-left. */
  origin: { x: number; y: number };
  /** From one label's corner to the next one's. */
  pitch: { x: number; y: number };
  /** Inside one label, from its top-left corner. */
  symbol: { kind: 'qrcode' | 'datamatrix'; x: number; y: number; size: number };
  /** The code in letters. */
  codeText: { x: number; y: number; size: number };
  code128: { x: number; y: number; width: number; height: number } | null;
  /** Title and lines: where they start, how wide, the title's size and the lines' size, and how many lines fit. */
  text: { x: number; y: number; width: number; titleSize: number; lineSize: number; maxLines: number };
  /** ZPL: dots per millimetre of the printer the layout is meant for (8 = 203 dpi). */
  zplDotsPerMm: number;
  /**
   * A reagent's GHS pictograms (diamonds `size` wide, side by side) and signal word, in a row at (x, y) in place of
   * the last text line; null where there is no room (cryo).
   */
  hazards: { x: number; y: number; size: number; width: number } | null;
}

const IN = 72;

export const LAYOUTS: Record<Layout['name'], Layout> = {
  'sheet-30': {
    name: 'sheet-30',
    title: 'Address labels, 30 per sheet',
    description: 'US Letter sheet of 30 labels, 2 5/8 × 1 in (Avery 5160 / 8160 and compatibles).',
    page: { width: 8.5 * IN, height: 11 * IN },
    label: { width: 2.625 * IN, height: 1 * IN },
    columns: 3,
    rows: 10,
    origin: { x: 0.1875 * IN, y: 0.5 * IN },
    pitch: { x: 2.75 * IN, y: 1 * IN },
    symbol: { kind: 'qrcode', x: 5, y: 4, size: 56 },
    codeText: { x: 5, y: 62.5, size: 6.5 },
    code128: { x: 66, y: 50, width: 116, height: 16 },
    text: { x: 66, y: 5, width: 118, titleSize: 7.5, lineSize: 6, maxLines: 4 },
    zplDotsPerMm: 8,
    hazards: { x: 66, y: 36, size: 13, width: 118 },
  },
  cryo: {
    name: 'cryo',
    title: 'Cryo-vial label',
    description: 'One label per page, 1.28 × 0.5 in (32.5 × 12.7 mm), for cryogenic vial labels on a roll.',
    page: { width: 1.28 * IN, height: 0.5 * IN },
    label: { width: 1.28 * IN, height: 0.5 * IN },
    columns: 1,
    rows: 1,
    origin: { x: 0, y: 0 },
    pitch: { x: 0, y: 0 },
    symbol: { kind: 'datamatrix', x: 3, y: 3, size: 30 },
    codeText: { x: 36, y: 3, size: 6 },
    code128: null,
    text: { x: 36, y: 11, width: 54, titleSize: 5, lineSize: 4.5, maxLines: 2 },
    zplDotsPerMm: 12,
    hazards: null,
  },
  'roll-2x1': {
    name: 'roll-2x1',
    title: 'Thermal roll, 2 × 1 in',
    description: 'One label per page, 2 × 1 in (51 × 25 mm), for direct thermal or transfer printers.',
    page: { width: 2 * IN, height: 1 * IN },
    label: { width: 2 * IN, height: 1 * IN },
    columns: 1,
    rows: 1,
    origin: { x: 0, y: 0 },
    pitch: { x: 0, y: 0 },
    symbol: { kind: 'qrcode', x: 4, y: 4, size: 46 },
    codeText: { x: 4, y: 51, size: 6 },
    code128: { x: 8, y: 58, width: 128, height: 11 },
    text: { x: 54, y: 5, width: 86, titleSize: 7, lineSize: 5.5, maxLines: 5 },
    zplDotsPerMm: 8,
    hazards: { x: 54, y: 34, size: 14, width: 86 },
  },
};

export const LAYOUT_NAMES = Object.keys(LAYOUTS) as Layout['name'][];

export const labelsPerPage = (l: Layout) => l.columns * l.rows;

/** Where label `k` of a page sits: its top-left corner from the page's top-left. */
export function slotOf(l: Layout, k: number): { x: number; y: number } {
  const col = k % l.columns;
  const row = Math.floor(k / l.columns);
  return { x: l.origin.x + col * l.pitch.x, y: l.origin.y + row * l.pitch.y };
}

const MM = 25.4 / IN;

export const layoutSummary = (l: Layout) => ({
  name: l.name,
  title: l.title,
  description: l.description,
  labels_per_page: labelsPerPage(l),
  width_mm: Math.round(l.label.width * MM * 10) / 10,
  height_mm: Math.round(l.label.height * MM * 10) / 10,
});
