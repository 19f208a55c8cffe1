import { PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { csvRecord, joinPath } from '../inventory/csv/rules.js';
import { embedPdfFonts } from '../shared/pdf-fonts.js';
import type { StocktakeLine, StocktakeWithLines } from './schemas.js';

// A count's report (docs/stocktake.md): every line with its state, as CSV (RFC 4180, cells a spreadsheet would run as
// a formula neutralised by src/inventory/csv/rules.ts) and as a PDF (pdf-lib, A4, DejaVu Sans Condensed
// embedded as a subset by src/shared/pdf-fonts.ts, so names in Greek or Cyrillic print as written).

const STATE_WORDS: Record<StocktakeLine['state'], string> = {
  missing: 'Missing',
  unexpected: 'Unexpected',
  different: 'Different',
  matching: 'As recorded',
};

const person = (p: { first_name: string; last_name: string } | null) => (p ? `${p.first_name} ${p.last_name}`.trim() : '');

export const CSV_HEADER = [
  'state',
  'item',
  'vendor',
  'catalog_number',
  'lot_number',
  'expiration_date',
  'recorded_quantity',
  'counted_quantity',
  'recorded_location',
  'found_location',
  'counted_by',
  'counted_at',
  'instance_id',
  'item_id',
] as const;

export function reportCsv(view: StocktakeWithLines): string {
  let out = csvRecord([...CSV_HEADER]);
  for (const l of view.lines) {
    out += csvRecord([
      l.state,
      l.item_name,
      l.vendor,
      l.catalog_number,
      l.lot_number,
      l.expiration_date,
      l.recorded_quantity,
      l.counted_quantity ?? (l.counted ? l.recorded_quantity : ''),
      joinPath(l.recorded_location?.pathNames ?? []),
      joinPath(l.found_location?.pathNames ?? []),
      person(l.counted_by),
      l.counted_at,
      l.instance_id,
      l.item_id,
    ]);
  }
  return out;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;

export async function reportPdf(view: StocktakeWithLines): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // A count of a lab without instances covers the lab (docs/stocktake.md), not a location.
  const place = view.covers === 'lab' ? view.lab.name : joinPath(view.location?.pathNames ?? []) || 'a deleted location';
  doc.setTitle(`Stocktake of ${place}`);
  doc.setCreator('Labstock');
  const { regular: font, bold, printable } = await embedPdfFonts(doc);
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const line = (text: string, opts: { size?: number; f?: PDFFont; x?: number; gap?: number } = {}) => {
    const size = opts.size ?? 9;
    if (y < MARGIN + size) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN;
    }
    const f = opts.f ?? font;
    let t = printable(text);
    const width = A4[0] - MARGIN - (opts.x ?? MARGIN);
    if (f.widthOfTextAtSize(t, size) > width) {
      while (t.length > 1 && f.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
      t = `${t}…`;
    }
    page.drawText(t, { x: opts.x ?? MARGIN, y, size, font: f });
    y -= size + (opts.gap ?? 4);
  };
  const s = view.summary;
  line(`Stocktake of ${place}`, { size: 16, f: bold, gap: 8 });
  line(`${view.lab.name} · ${statusWords(view)}`, { size: 10 });
  line(`Started ${view.started_at.slice(0, 16).replace('T', ' ')} UTC by ${person(view.started_by) || 'someone no longer here'}`, {
    size: 10,
  });
  line(
    `${s.expected} expected, ${s.counted} counted: ${s.missing} missing, ${s.unexpected} unexpected, ${s.different} different, ${s.matching} as recorded`,
    { size: 10, gap: 12 },
  );
  for (const state of ['missing', 'unexpected', 'different', 'matching'] as const) {
    const lines = view.lines.filter((l) => l.state === state);
    if (lines.length === 0) continue;
    line(`${STATE_WORDS[state]} (${lines.length})`, { size: 12, f: bold, gap: 6 });
    for (const l of lines) {
      const lot = l.lot_number ? `lot ${l.lot_number}` : 'no lot';
      line(`${l.item_name} · ${lot}${l.expiration_date ? ` · expires ${l.expiration_date}` : ''}`, { f: bold, gap: 2 });
      line(detailOf(l), { x: MARGIN + 12, gap: 6 });
    }
    y -= 6;
  }
  return doc.save();
}

function statusWords(view: StocktakeWithLines): string {
  if (view.status === 'open') return 'still being counted';
  const when = (view.finished_at ?? '').slice(0, 16).replace('T', ' ');
  const who = person(view.finished_by);
  if (view.status === 'cancelled') return `cancelled ${when} UTC${who ? ` by ${who}` : ''}`;
  const zero = view.missing_set_to_zero ? ', missing ones set to zero' : '';
  return `applied ${when} UTC${who ? ` by ${who}` : ''}${zero}`;
}

function detailOf(l: StocktakeLine): string {
  const recordedAt = joinPath(l.recorded_location?.pathNames ?? []) || 'no location';
  if (!l.counted) return `Recorded ${l.recorded_quantity} at ${recordedAt}; not counted`;
  const counted = l.counted_quantity ?? l.recorded_quantity;
  const found = l.found_location ? `, found at ${joinPath(l.found_location.pathNames)}` : '';
  return `Recorded ${l.recorded_quantity} at ${recordedAt}; counted ${counted}${found} by ${person(l.counted_by) || 'someone'}`;
}
