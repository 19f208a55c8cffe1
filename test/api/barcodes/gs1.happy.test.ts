// Vendor barcodes at receiving (docs/scanning.md, docs/product.md §14): every form a scanner or a camera hands over
// (symbology identifier or not, group separators, the printed "(01)…" form) reads to the same GTIN, lot, expiry and
// serial; and reading stores nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { GS, readGs1 } from './_gs1.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const WHOLE = {
  gtin: '09506000134352',
  lot_number: 'SLCD1234',
  expiration_date: '2027-12-31',
  serial_number: 'S0042',
  production_date: null,
};

describe('GS1 barcodes (happy)', () => {
  it('a GS1 DataMatrix with its identifier and a separator reads to GTIN, lot, expiry and serial; nothing is stored', async () => {
    const before = await dbState(h);
    const res = await readGs1(h, h.a.member.token, `]d2010950600013435217271231${'10SLCD1234'}${GS}21S0042`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      symbology: 'GS1 DataMatrix',
      ...WHOLE,
      elements: [
        { ai: '01', title: expect.any(String), value: '09506000134352' },
        { ai: '17', title: expect.any(String), value: '2027-12-31' },
        { ai: '10', title: expect.any(String), value: 'SLCD1234' },
        { ai: '21', title: expect.any(String), value: 'S0042' },
      ],
    });
    expect(await dbState(h)).toEqual(before);
  });

  it('GS1-128, no identifier, the printed form and a trailing newline all read alike', async () => {
    for (const [data, symbology] of [
      [`]C10109506000134352${'10SLCD1234'}${GS}17271231${'21S0042'}`, 'GS1-128'],
      [`010950600013435217271231${'10SLCD1234'}${GS}21S0042\r\n`, null],
      ['(01)09506000134352(17)271231(10)SLCD1234(21)S0042', 'GS1 Element String (HRI)'],
      [`]Q3010950600013435217271231${'10SLCD1234'}${GS}21S0042`, 'GS1 QR Code'],
    ] as const) {
      const res = await readGs1(h, h.a.admin.token, data);
      expect(res.statusCode, `${JSON.stringify(data)}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({ symbology, ...WHOLE });
    }
  });

  it('production date (AI 11), day 00 as the last day of the month, and AIs Labstock does not use are kept in elements', async () => {
    const res = await readGs1(h, h.a.member.token, `(01)09506000134352(11)260115(17)270200(10)A-1/2(30)12`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ production_date: '2026-01-15', expiration_date: '2027-02-28', lot_number: 'A-1/2', serial_number: null });
    expect(body.elements.map((e: { ai: string }) => e.ai)).toEqual(['01', '11', '17', '10', '30']);
  });

  it('a lot alone, without a GTIN, is a reading too', async () => {
    const res = await readGs1(h, h.a.member.token, '10LOT-77');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ gtin: null, lot_number: 'LOT-77', expiration_date: null, symbology: null });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await h.call(null, { method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/barcodes/gs1'].post.operationId).toBe('readVendorBarcode');
  });
});
