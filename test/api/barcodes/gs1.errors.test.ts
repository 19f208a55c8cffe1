// A scan that is not a whole GS1 element string is refused with the reason (docs/product.md §14 "Vendor barcodes":
// never half-applied): 422 on field `barcode`, whose message says what is wrong; nothing is stored.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { GS, readGs1 } from './_gs1.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('GS1 barcodes (errors)', () => {
  it('malformed scans are 422 with the reason, and change nothing', async () => {
    const before = await dbState(h);
    for (const [data, reason] of [
      ['hello', /not a GS1 element string/],
      ['01095060001343', /not a GS1 element string/],
      ['(01)09506000134353', /check digit/],
      ['010950600013435217271301', /not a date/],
      ['17270231', /not a date/],
      [`10${'A'.repeat(21)}`, /1 to 20 are allowed/],
      [`10AB${GS}21`, /1 to 20 are allowed/],
      ['10A B', /characters GS1 does not allow/],
      ['00123456789012345675', /none of product number/],
      [']d2', /has no GS1 elements/],
      [` ${GS} `, /empty/],
      ['(10)AB(17)271231(10)CD', /twice/],
    ] as const) {
      const body = expectValidation(await readGs1(h, h.a.member.token, data), 'barcode');
      expect(body.message, JSON.stringify(data)).toMatch(reason);
    }
    expect(await dbState(h)).toEqual(before);
  });

  it('a body without data, with other fields, an empty or over-long string, or not JSON is refused', async () => {
    expectValidation(await h.call(h.a.member.token, { method: 'POST', url: '/barcodes/gs1', payload: {} }), 'barcode');
    expectValidation(
      await h.call(h.a.member.token, { method: 'POST', url: '/barcodes/gs1', payload: { barcode: '10A', lot: 'x' } }),
      'lot',
    );
    expectValidation(await readGs1(h, h.a.member.token, ''), 'barcode');
    expectValidation(await readGs1(h, h.a.member.token, `10${'A'.repeat(600)}`), 'barcode');
    expectValidation(await readGs1(h, h.a.member.token, 42), 'barcode');
    const res = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/barcodes/gs1',
      headers: { 'content-type': 'text/plain' },
      payload: '10A',
    });
    expectError(res, 415, 'unsupported_media_type');
  });
});
