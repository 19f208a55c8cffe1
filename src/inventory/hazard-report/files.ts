import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';
import { csvRecord, joinPath } from '../csv/rules.js';
import { placeWords, totalWords } from './rules.js';
import type { HazardReport } from './schemas.js';

// The hazard report as files for the safety office (docs/hazard-reports.md): CSV (RFC 4180, cells a spreadsheet would
// run as a formula neutralised by src/inventory/csv/rules.ts) and PDF (pdf-lib, A4, Helvetica, like a count's report
// in src/stocktake/report.ts).

const BY_WORDS: Record<HazardReport['by'], string> = {
  location: 'per location',
  building: 'per building',
  'control-area': 'per control area',
};

export const CSV_HEADER = [
  'row',
  'group',
  'control_area',
  'hazard_class',
  'category',
  'item',
  'location',
  'quantity',
  'unit_size',
  'amount',
  'unit',
  'amount_text',
  'hazard_statements',
  'limit',
  'over_limit',
  'instance_id',
  'item_id',
] as const;

/**
 * One row per container and class ("container"), one per class with its sums ("total": one per unit family, and one
 * counting the containers of unknown size), one per control-area limit ("limit").
 */
export function reportCsv(report: HazardReport): string {
  let out = csvRecord([...CSV_HEADER]);
  for (const g of report.groups) {
    const group = placeWords(g.location.path);
    const area = g.control_area ? 'yes' : 'no';
    for (const l of g.limits) {
      out += csvRecord([
        'limit',
        group,
        area,
        l.label,
        l.state,
        '',
        '',
        '',
        '',
        l.stored,
        l.unit,
        l.text,
        '',
        l.limit,
        l.over ? 'yes' : 'no',
        '',
        '',
      ]);
    }
    for (const c of g.classes) {
      for (const total of [c.total.volume, c.total.mass, c.total.count]) {
        if (total)
          out += csvRecord([
            'total',
            group,
            area,
            c.name,
            c.category,
            '',
            '',
            '',
            '',
            total.amount,
            total.unit,
            total.text,
            '',
            '',
            '',
            '',
            '',
          ]);
      }
      if (c.unknown > 0) {
        const words = `${c.unknown} of unknown size`;
        out += csvRecord(['total', group, area, c.name, c.category, '', '', '', '', '', '', words, '', '', '', '', '']);
      }
      for (const i of c.items) {
        out += csvRecord([
          'container',
          group,
          area,
          c.name,
          i.category,
          i.name,
          joinPath(i.location_path),
          i.quantity,
          i.unit_size,
          i.amount.amount,
          i.amount.unit,
          i.amount.text ?? 'unknown',
          i.hazard_statements.join(' '),
          '',
          '',
          i.instance_id,
          i.item_id,
        ]);
      }
    }
  }
  return out;
}

/** Helvetica's WinAnsi encoding covers Latin text; anything else is written as "?" rather than failing the report. */
const printable = (font: PDFFont, text: string): string =>
  [...text]
    .map((ch) => {
      try {
        font.encodeText(ch);
        return ch;
      } catch {
        return '?';
      }
    })
    .join('');

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;

export async function reportPdf(report: HazardReport): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = `Hazard inventory of ${report.lab.name}`;
  doc.setTitle(title);
  doc.setCreator('Labstock');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const line = (text: string, opts: { size?: number; f?: PDFFont; x?: number; gap?: number } = {}) => {
    const size = opts.size ?? 9;
    if (y < MARGIN + size) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN;
    }
    const f = opts.f ?? font;
    let t = printable(f, text);
    const width = A4[0] - MARGIN - (opts.x ?? MARGIN);
    if (f.widthOfTextAtSize(t, size) > width) {
      while (t.length > 1 && f.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
      t = `${t}…`;
    }
    page.drawText(t, { x: opts.x ?? MARGIN, y, size, font: f });
    y -= size + (opts.gap ?? 4);
  };
  line(title, { size: 16, f: bold, gap: 8 });
  const scope = report.scope ? `, ${joinPath(report.scope.path)} and below` : '';
  line(`${BY_WORDS[report.by]}${scope} · as of ${report.generated_at.slice(0, 16).replace('T', ' ')} UTC`, { size: 10, gap: 12 });
  if (report.groups.length === 0) line('Nothing with a hazard is stored here.', { size: 10 });
  for (const g of report.groups) {
    line(`${placeWords(g.location.path)}${g.control_area ? ' (control area)' : ''}`, { size: 13, f: bold, gap: 6 });
    for (const l of g.limits) {
      const unknown = l.unknown > 0 ? `; ${l.unknown} of unknown amount not counted` : '';
      line(`${l.over ? 'OVER THE LIMIT: ' : 'Limit: '}${l.label}, ${l.state}: ${l.text}${unknown}`, {
        x: MARGIN + 8,
        f: l.over ? bold : font,
      });
    }
    for (const c of g.classes) {
      line(`${c.name}, category ${c.category}: ${totalWords(c)} in ${c.containers} container${c.containers === 1 ? '' : 's'}`, {
        f: bold,
        x: MARGIN + 8,
        gap: 3,
      });
      for (const i of c.items) {
        const where = report.by === 'location' ? '' : ` · ${joinPath(i.location_path) || 'no location'}`;
        const size = i.unit_size ? `${i.quantity} × ${i.unit_size}` : `${i.quantity} (no unit size)`;
        line(`${i.name} · ${size} = ${i.amount.text ?? 'unknown amount'}${where} · ${i.hazard_statements.join(' ')}`, {
          x: MARGIN + 20,
          gap: 3,
        });
      }
      y -= 4;
    }
    y -= 6;
  }
  return doc.save();
}
