// Every code scans, not only the ones a test happens to draw (docs/labels.md "Symbols"): codes are random, and a
// Code 128 whose modules were stretched to its box scanned or not depending on the code (56549RDR9E did not at
// 200 dpi). Sixty codes, the longest symbols among them, are rendered on sheets and on rolls and read back.
import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '../../../src/labels/layouts.js';
import { renderLabelsPdf } from '../../../src/labels/pdf.js';
import { CODE_ALPHABET, newCode } from '../../../src/labels/rules.js';
import { decode, pageCount, renderPage } from './_decode.js';

const fixed = [
  '56549RDR9E', // scanned at neither 200 dpi nor with hazards before modules were put on the 1/100 in grid
  'ABCDEFGHJK', // letters only: the widest symbol (145 modules)
  '2345678923', // digits only: the narrowest
  'Z2Z2Z2Z2Z2', // a change of code set at every character
  CODE_ALPHABET.slice(-10),
];
const codes = [...fixed, ...Array.from({ length: 55 }, newCode)];

const view = (code: string, k: number) => ({
  kind: 'instance' as const,
  code,
  lab_id: 'lab',
  item_id: 'item',
  instance_id: 'instance',
  location_id: null,
  title: 'Ethanol absolute',
  lines: ['Lot E-77', 'Chemistry lab', 'Room 1 / Shelf 2'],
  label: 'Ethanol absolute, Lot E-77',
  app_path: '/app/inventory/items/item',
  archived: false,
  label_url: `http://labstock.test/app/c/${code}`,
  // Every other label with a hazard row just above the bars.
  ...(k % 2 ? { hazards: { pictograms: ['GHS02', 'GHS07'], signalWord: 'Danger' as const } } : {}),
});

async function code128s(pdf: Uint8Array, dpi: number) {
  const found: string[] = [];
  for (let p = 0; p < pageCount(pdf); p++) {
    for (const r of await decode(renderPage(pdf, p, dpi).image)) if (r.format === 'Code128') found.push(r.text);
  }
  return found.sort();
}

describe('labels scan whatever their code', () => {
  it.each([200, 300])('sheet-30 at %i dpi: all sixty Code 128s read back', async (dpi) => {
    const pdf = await renderLabelsPdf(LAYOUTS['sheet-30'], codes.map(view));
    expect(pageCount(pdf)).toBe(2);
    expect(await code128s(pdf, dpi)).toEqual([...codes].sort());
  });

  it('roll-2x1 at 300 dpi: the fixed codes and ten random ones read back', async () => {
    const some = codes.slice(0, 15);
    const pdf = await renderLabelsPdf(LAYOUTS['roll-2x1'], some.map(view));
    expect(await code128s(pdf, 300)).toEqual([...some].sort());
  });
});
