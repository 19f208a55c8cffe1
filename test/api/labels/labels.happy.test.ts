// POST /labels (docs/labels.md): every layout's PDF is rendered in Node and its symbols decoded back, and what they
// say is compared with the codes the database holds; ZPL carries one format per label with the code in its symbols.

import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { receive } from '../put-away/_put-away.js';
import { decode, pageCount, pageText, renderPage } from './_decode.js';
import { codeOf, print } from './_labels.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const lab = () => h.a.migratedLab;
const url = (code: string) => `http://labstock.test/app/c/${code}`;
const pdfOf = (res: { rawPayload: Buffer }) => new Uint8Array(res.rawPayload);

/** Every symbol of every page, by format. */
async function symbolsOf(pdf: Uint8Array, dpi: number) {
  const found: Record<string, string[]> = { QRCode: [], DataMatrix: [], Code128: [] };
  for (let p = 0; p < pageCount(pdf); p++) {
    const { image, png } = renderPage(pdf, p, dpi);
    if (process.env.LABELS_PNG) writeFileSync(`${process.env.LABELS_PNG}-${p}.png`, png);
    for (const r of await decode(image)) found[r.format]?.push(r.text);
  }
  for (const list of Object.values(found)) list.sort();
  return found;
}

describe('POST /labels (happy)', () => {
  it('sheet-30: one page of QR codes (the label address) and Code 128s (the code), each the stored code', async () => {
    const targets = [
      ...lab().instanceIds.map((id) => ['instance', id] as const),
      ['location', lab().locationIds[2]!] as const,
      ['item', h.a.legacyLab.itemId] as const,
    ];
    const codes = (await Promise.all(targets.map(([kind, id]) => codeOf(h, kind, id)))).map((c) => c!);
    const res = await print(h, h.a.member.token, {
      format: 'pdf',
      layout: 'sheet-30',
      instance_ids: lab().instanceIds,
      location_ids: [lab().locationIds[2]],
      item_ids: [h.a.legacyLab.itemId],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="labels-sheet-30-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const pdf = pdfOf(res);
    expect(pageCount(pdf)).toBe(1);
    const found = await symbolsOf(pdf, 200);
    expect(found.QRCode).toEqual(codes.map(url).sort());
    expect(found.Code128).toEqual([...codes].sort());
  });

  it('roll-2x1: a page per label, each with the QR code and the Code 128 of its code', async () => {
    const codes = (await Promise.all(lab().instanceIds.map((id) => codeOf(h, 'instance', id)))).map((c) => c!);
    const res = await print(h, h.a.member.token, { format: 'pdf', layout: 'roll-2x1', item_ids: [lab().itemId] });
    expect(res.statusCode, res.body).toBe(200);
    const pdf = pdfOf(res);
    expect(pageCount(pdf)).toBe(2);
    const found = await symbolsOf(pdf, 300);
    expect(found.QRCode).toEqual(codes.map(url).sort());
    expect(found.Code128).toEqual([...codes].sort());
  });

  it('cryo: a page per label with a DataMatrix of the code alone', async () => {
    const codes = (await Promise.all(lab().instanceIds.map((id) => codeOf(h, 'instance', id)))).map((c) => c!);
    const res = await print(h, h.a.member.token, { format: 'pdf', layout: 'cryo', instance_ids: lab().instanceIds });
    expect(res.statusCode, res.body).toBe(200);
    const found = await symbolsOf(pdfOf(res), 600);
    expect(found.DataMatrix).toEqual([...codes].sort());
    expect(found.QRCode).toEqual([]);
  });

  it('what is stored at a location (and below), and what arrived since a time', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const fresh = await receive(h, h.a.member.token, lab(), { location_id: lab().locationIds[1] });
    const freshCode = (await codeOf(h, 'instance', fresh.instanceId))!;
    const onShelf = (await codeOf(h, 'instance', lab().instanceIds[0]!))!;

    const below = await print(h, h.a.member.token, {
      format: 'zpl',
      layout: 'sheet-30',
      stored_in_location_id: lab().locationIds[0],
      include_sublocations: true,
    });
    expect(below.statusCode, below.body).toBe(200);
    expect(below.body).toContain(freshCode);
    expect(below.body).toContain(onShelf);
    const only = await print(h, h.a.member.token, { format: 'zpl', layout: 'sheet-30', stored_in_location_id: lab().locationIds[1] });
    expect(only.body).toContain(freshCode);
    expect(only.body).not.toContain(onShelf);

    const today = await print(h, h.a.member.token, { format: 'pdf', layout: 'sheet-30', received_since: since, lab_id: lab().id });
    expect(today.statusCode, today.body).toBe(200);
    expect((await symbolsOf(pdfOf(today), 200)).Code128).toEqual([freshCode]);
  });

  it('ZPL: one ^XA…^XZ per label, the QR code holding the address, the Code 128 and the text holding the code', async () => {
    const codes = (await Promise.all(lab().instanceIds.map((id) => codeOf(h, 'instance', id)))).map((c) => c!);
    const res = await print(h, h.a.member.token, { format: 'zpl', layout: 'roll-2x1', instance_ids: lab().instanceIds });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="labels-roll-2x1-.*\.zpl"$/);
    const formats = res.body.trim().split(/(?<=\^XZ)\n/);
    expect(formats).toHaveLength(2);
    formats.forEach((f, k) => {
      expect(f.startsWith('^XA\n^CI28\n^PW406\n^LL203')).toBe(true);
      expect(f.endsWith('^XZ')).toBe(true);
      expect(f).toContain(`^BQN,2,`);
      expect(f).toContain(`^FDMA,${url(codes[k]!)}^FS`);
      expect(f).toMatch(new RegExp(`\\^BCN,\\d+,N,N,N\\^FD${codes[k]}\\^FS`));
      expect(f).toContain('^FH^FDAnti-GFP A^FS');
    });
    const cryo = await print(h, h.a.member.token, { format: 'zpl', layout: 'cryo', instance_ids: [lab().instanceIds[0]] });
    expect(cryo.body).toMatch(new RegExp(`\\^BXN,\\d+,200\\^FD${codes[0]}\\^FS`));
    expect(cryo.body).not.toContain('^BQN');
  });

  it('GET /labels/layouts lists the three stocks', async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: '/labels/layouts' });
    expect(res.json().map((l: any) => [l.name, l.labels_per_page])).toEqual([
      ['sheet-30', 30],
      ['cryo', 1],
      ['roll-2x1', 1],
    ]);
  });

  describe('text beyond Latin-1', () => {
    // A reagent whose name, lot and place hold Greek, Cyrillic, µ and an umlaut (docs/labels.md "Text").
    let item: { id: string; instanceIds: string[] };
    beforeAll(async () => {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/inventory-items',
        payload: {
          lab_id: lab().id,
          name: 'α-tubulin',
          vendor: 'Müller',
          catalog_number: 'AT-1',
          instances: [{ quantity: '1', lot_number: 'β-ME 100 µL', location_id: lab().locationIds[0] }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      item = { id: res.json().id, instanceIds: res.json().instances.map((i: any) => i.id) };
    });

    it.each(['sheet-30', 'roll-2x1', 'cryo'])('%s: the PDF prints it as written, and a reader gets it back', async (layout) => {
      const res = await print(h, h.a.member.token, { format: 'pdf', layout, instance_ids: item.instanceIds });
      expect(res.statusCode, res.body).toBe(200);
      const text = pageText(pdfOf(res));
      expect(text).toContain('α-tubulin');
      expect(text).not.toContain('?-tubulin');
      if (layout !== 'cryo') expect(text).toContain('β-ME 100 µL');
    });

    it('ZPL: UTF-8 (^CI28) as ^FH hex bytes, in the Unicode font where font 0 has no glyphs', async () => {
      const res = await print(h, h.a.member.token, { format: 'zpl', layout: 'roll-2x1', instance_ids: item.instanceIds });
      expect(res.statusCode, res.body).toBe(200);
      // Plain ASCII on the wire, whatever the names hold.
      expect(/^[\x20-\x7e\n]*$/.test(res.body)).toBe(true);
      const fields = [...res.body.matchAll(/\^FO\d+,\d+(\^A[^^]*)\^FH\^FD([^^]*)\^FS/g)].map(([, font, data]) => ({
        font,
        // ^FH's _XX escapes are UTF-8 bytes; ^CI28 makes the printer read them as such.
        text: Buffer.from(
          data!.replace(/_([0-9A-F]{2})/g, (_m, x) => String.fromCharCode(Number.parseInt(x, 16))),
          'latin1',
        ).toString('utf8'),
      }));
      const title = fields.find((f) => f.text === 'α-tubulin');
      expect(title?.font).toMatch(/^\^A@N,\d+,\d+,E:TT0003M_\.FNT$/);
      expect(res.body).toContain('^FD_CE_B1-tubulin^FS');
      expect(fields.map((f) => f.text)).toContain('Lot β-ME 100 µL');
      // Latin text stays in the printer's own font 0.
      const place = await print(h, h.a.member.token, { format: 'zpl', layout: 'roll-2x1', instance_ids: [lab().instanceIds[0]] });
      expect(place.body).toContain('^A0N,');
      expect(place.body).not.toContain('TT0003M_');
    });
  });

  describe("a flammable reagent's hazards", () => {
    // Ethanol's statements: H225 (flammable liquid 2: flame, Danger) and H319 (eye irritation 2: exclamation mark).
    let item: { id: string; instanceIds: string[] };
    beforeAll(async () => {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/inventory-items',
        payload: {
          lab_id: lab().id,
          name: 'Ethanol absolute',
          vendor: 'Acme',
          catalog_number: 'ETH-1',
          instances: [{ quantity: '1', lot_number: 'E-77', location_id: lab().locationIds[0] }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      item = { id: res.json().id, instanceIds: res.json().instances.map((i: any) => i.id) };
      const set = await h.call(h.a.admin.token, {
        method: 'PUT',
        url: `/inventory-items/${item.id}/hazards`,
        payload: { hazard_statements: ['H225', 'H319'] },
      });
      expect(set.statusCode, set.body).toBe(200);
    });

    /** How many pixels of the GHS red (a diamond's frame) the page has, rendered at `dpi`. */
    const redPixels = (pdf: Uint8Array, dpi: number) => {
      const { image } = renderPage(pdf, 0, dpi);
      let n = 0;
      for (let i = 0; i < image.data.length; i += 4) {
        if (image.data[i]! > 180 && image.data[i + 1]! < 80 && image.data[i + 2]! < 100) n++;
      }
      return n;
    };

    it.each([
      ['sheet-30', 200],
      ['roll-2x1', 300],
    ] as const)('%s: the signal word in letters and the pictograms in red diamonds; the symbols still decode', async (layout, dpi) => {
      const res = await print(h, h.a.member.token, { format: 'pdf', layout, instance_ids: item.instanceIds });
      expect(res.statusCode, res.body).toBe(200);
      const pdf = pdfOf(res);
      const text = pageText(pdf);
      expect(text).toContain('Danger');
      expect(text).toContain('Ethanol absolute');
      expect(text).toContain('Lot E-77');
      // Two diamonds' frames: red on the page, where a label without hazards has none.
      expect(redPixels(pdf, dpi)).toBeGreaterThan(100);
      const plain = await print(h, h.a.member.token, { format: 'pdf', layout, instance_ids: [lab().instanceIds[0]] });
      expect(redPixels(pdfOf(plain), dpi)).toBe(0);
      expect(pageText(pdfOf(plain))).not.toContain('Danger');
      const code = (await codeOf(h, 'instance', item.instanceIds[0]!))!;
      const found = await symbolsOf(pdf, dpi);
      expect(found.QRCode).toEqual([url(code)]);
      expect(found.Code128).toEqual([code]);
    });

    it('cryo: no room for them, the label is as before', async () => {
      const res = await print(h, h.a.member.token, { format: 'pdf', layout: 'cryo', instance_ids: item.instanceIds });
      expect(res.statusCode, res.body).toBe(200);
      expect(pageText(pdfOf(res))).not.toContain('Danger');
    });

    it('ZPL: the signal word and the pictograms by name, as a line of text', async () => {
      const res = await print(h, h.a.member.token, { format: 'zpl', layout: 'roll-2x1', instance_ids: item.instanceIds });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toMatch(/\^FO\d+,\d+\^A0N,\d+,\d+\^FH\^FDDanger: Flame, Exclamation mark\^FS/);
    });
  });
});
